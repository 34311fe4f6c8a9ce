/// Who streams each physical camera when several virtual cameras need it at once
/// (docs/virtual-camera.md, "One camera, two virtual cameras"): the first virtual camera that
/// opens it hosts its stream; any other that needs it while it streams is a guest, fed copies of
/// the host's frames instead of opening the device again (a second open would find it busy).
///
/// The host keeps the stream while anyone needs it: when the host itself stops needing the
/// camera but a guest still does, the stream stays in the host's producer (never closed and
/// reopened under a guest). It closes once nobody needs it. Pure bookkeeping: the daemon's
/// `CameraSharing` carries out what it answers.
public struct CameraSharingTable: Sendable, Equatable {
    /// The frame layout a virtual camera's producer works in: a guest must share the host's,
    /// since frames are handed over as they are.
    public struct Layout: Sendable, Equatable, CustomStringConvertible {
        public var format: String
        public var width: Int
        public var height: Int

        public init(format: String, width: Int, height: Int) {
            self.format = format
            self.width = width
            self.height = height
        }

        public var description: String { "\(format) \(width)x\(height)" }
    }

    public struct Entry: Sendable, Equatable {
        /// The virtual camera whose producer streams the camera.
        public var host: String
        public var layout: Layout
        /// Whether the host itself still needs it (false: kept open for the guests only).
        public var hostNeeds: Bool
        /// Virtual cameras fed from the host's stream, in the order they joined.
        public var guests: [String]
    }

    /// What a virtual camera that needs a camera does.
    public enum Want: Sendable, Equatable {
        /// Open the device itself (it hosts the stream, or already does).
        case open
        /// Take frames from `host`'s stream (it already streams the camera).
        case join(host: String)
        /// The host's stream cannot feed this camera: the layouts differ.
        case refuse(host: String, hostLayout: Layout)
    }

    /// What follows when a virtual camera no longer needs a camera.
    public enum Release: Sendable, Equatable {
        /// Close the stream in the releasing camera's own producer (nobody else needs it).
        case close
        /// The releasing camera hosts it and guests still need it: the stream stays open in
        /// its producer (which stops showing it).
        case keepForGuests([String])
        /// A guest left: tell the host to stop handing it frames; `closeInHost` when nobody
        /// needs the stream any more (the host's producer closes it).
        case leave(host: String, closeInHost: Bool)
    }

    public private(set) var entries: [String: Entry] = [:]

    public init() {}

    public mutating func want(_ camera: String, by id: String, layout: Layout) -> Want {
        guard var entry = entries[camera] else {
            entries[camera] = Entry(host: id, layout: layout, hostNeeds: true, guests: [])
            return .open
        }
        if entry.host == id {
            entry.hostNeeds = true
            entries[camera] = entry
            return .open
        }
        if entry.guests.contains(id) { return .join(host: entry.host) }
        guard entry.layout == layout else { return .refuse(host: entry.host, hostLayout: entry.layout) }
        entry.guests.append(id)
        entries[camera] = entry
        return .join(host: entry.host)
    }

    public mutating func release(_ camera: String, by id: String) -> Release {
        guard var entry = entries[camera] else { return .close }
        if entry.host == id {
            if entry.guests.isEmpty {
                entries[camera] = nil
                return .close
            }
            entry.hostNeeds = false
            entries[camera] = entry
            return .keepForGuests(entry.guests)
        }
        guard entry.guests.contains(id) else { return .close }
        entry.guests.removeAll { $0 == id }
        let closeInHost = entry.guests.isEmpty && !entry.hostNeeds
        entries[camera] = closeInHost ? nil : entry
        return .leave(host: entry.host, closeInHost: closeInHost)
    }

    /// The host's stream ended (the camera failed or went away): the entry goes, and the
    /// guests (who learn it from their feeds) may open the camera themselves when they retry.
    /// Returns whether the host itself still needed the camera.
    @discardableResult
    public mutating func streamEnded(_ camera: String, host id: String) -> Bool {
        guard let entry = entries[camera], entry.host == id else { return false }
        entries[camera] = nil
        return entry.hostNeeds
    }

    /// A virtual camera's producer is torn down (a reload, shutdown): the streams it hosted end
    /// (their guests' feeds report it), and it leaves the streams it was a guest of. Returns
    /// the hosts whose stream nobody needs any more, to close.
    public mutating func remove(_ id: String) -> [(camera: String, host: String)] {
        var toClose: [(camera: String, host: String)] = []
        for camera in entries.keys.sorted() {
            guard let entry = entries[camera] else { continue }
            if entry.host == id {
                entries[camera] = nil
            } else if entry.guests.contains(id), case let .leave(host, close) = release(camera, by: id), close {
                toClose.append((camera, host))
            }
        }
        return toClose
    }

    /// How `id` gets each camera it hosts or is fed: for `state` and the journal.
    public func role(of id: String, camera: String) -> Role {
        guard let entry = entries[camera] else { return .own }
        if entry.host == id { return entry.guests.isEmpty ? .own : .hosts(for: entry.guests) }
        return entry.guests.contains(id) ? .fedFrom(entry.host) : .own
    }

    public enum Role: Sendable, Equatable {
        /// Its own stream, shared with nobody.
        case own
        /// Its own stream, whose frames also feed these virtual cameras.
        case hosts(for: [String])
        /// Frames of the stream another virtual camera hosts.
        case fedFrom(String)
    }
}
