import FoldcamCapture
import FoldcamCore
import FoldcamIO

/// One capture, several outputs (docs/virtual-camera.md, "One camera, two virtual cameras"):
/// carries out `CameraSharingTable` for the daemon's virtual cameras. The first virtual camera
/// that opens a physical camera hosts its stream; another that needs it meanwhile gets a
/// `SharedCameraFeed` from the host's producer instead of opening the device again. Runs on
/// the event loop; each controller asks it before opening or closing a camera.
final class CameraSharing {
    private(set) var table = CameraSharingTable()
    private var producers: [String: VirtualCameraProducer] = [:]
    /// The feed each guest takes each camera through: camera → guest → feed.
    private var feeds: [String: [String: SharedCameraFeed]] = [:]
    private let log: Log
    /// Told when who hosts or is fed what changed (the readiness topic shows it).
    var onChange: (() -> Void)?

    init(log: Log) { self.log = log }

    /// A virtual camera's producer started.
    func register(_ id: String, producer: VirtualCameraProducer) {
        producers[id] = producer
    }

    /// A virtual camera's producer is being torn down: the streams it hosted end (its
    /// producer's stop tells the guests), and the streams it was a guest of let it go.
    func unregister(_ id: String) {
        for (camera, host) in table.remove(id) { producers[host]?.send(.close(camera: camera)) }
        for camera in Array(feeds.keys) {
            if let feed = feeds[camera]?.removeValue(forKey: id) { producers[feed.host]?.send(.unshare(feed)) }
            if feeds[camera]?.values.contains(where: { $0.host == id }) == true || feeds[camera]?.isEmpty == true { feeds[camera] = nil }
        }
        producers[id] = nil
        onChange?()
    }

    enum Open: Equatable {
        /// Open the device in the asking camera's own producer.
        case device
        /// Show the frames of another virtual camera's stream.
        case shared(SharedCameraFeed)
        /// It cannot be shared: why, for the journal.
        case refused(String)
    }

    func open(_ camera: String, by id: String) -> Open {
        guard let producer = producers[id] else { return .device }
        let layout = Self.layout(producer)
        switch table.want(camera, by: id, layout: layout) {
        case .open:
            return .device
        case let .join(host):
            if let feed = feeds[camera]?[id] { return .shared(feed) }
            let feed = SharedCameraFeed(camera: camera, host: host)
            feeds[camera, default: [:]][id] = feed
            producers[host]?.send(.share(feed))
            log.info("virtual camera \(id): \(camera) is streaming for virtual camera \(host); shared, not opened again (one copy per frame)")
            onChange?()
            return .shared(feed)
        case let .refuse(host, hostLayout):
            return .refused("\(camera) streams for virtual camera \(host) in \(hostLayout), and virtual camera \(id) works in \(layout): a camera is shared only between virtual cameras of one format (give their pools a common format, or leave \(camera) out of one pool)")
        }
    }

    /// `id` no longer needs `camera`. True when its own producer closes it (its own stream, or
    /// the shared source it was fed from); false when the stream stays open there for guests.
    func close(_ camera: String, by id: String) -> Bool {
        switch table.release(camera, by: id) {
        case .close:
            return true
        case let .keepForGuests(guests):
            log.info("virtual camera \(id) no longer shows \(camera); its stream stays open for \(guests.map { "virtual camera \($0)" }.joined(separator: ", "))")
            onChange?()
            return false
        case let .leave(host, closeInHost):
            if let feed = feeds[camera]?.removeValue(forKey: id) { producers[host]?.send(.unshare(feed)) }
            if feeds[camera]?.isEmpty == true { feeds[camera] = nil }
            if closeInHost {
                log.info("virtual camera \(host) closes \(camera): no virtual camera needs it any more")
                producers[host]?.send(.close(camera: camera))
            }
            onChange?()
            return true
        }
    }

    /// `camera` failed in `id`'s producer (its own stream, or the host's behind its feed).
    /// False when `id` hosted it for guests only: its own switching has nothing to do.
    func failed(_ camera: String, in id: String) -> Bool {
        if table.entries[camera]?.host == id {
            let needed = table.streamEnded(camera, host: id)
            feeds[camera] = nil
            onChange?()
            return needed
        }
        if case .fedFrom = table.role(of: id, camera: camera) { _ = close(camera, by: id) }
        return true
    }

    func role(of id: String, camera: String) -> CameraSharingTable.Role { table.role(of: id, camera: camera) }

    /// The cameras `id` streams for other virtual cameras, with them.
    func hosted(by id: String) -> [(camera: String, guests: [String])] {
        table.entries.keys.sorted().compactMap { camera in
            guard let entry = table.entries[camera], entry.host == id, !entry.guests.isEmpty else { return nil }
            return (camera, entry.guests)
        }
    }

    static func layout(_ producer: VirtualCameraProducer) -> CameraSharingTable.Layout {
        let c = producer.configuration
        return .init(format: c.format.rawValue, width: c.width, height: c.height)
    }
}

extension Daemon {
    /// With several virtual cameras, each one's readiness says which physical camera feeds it
    /// and whether that stream is shared (docs/protocol.md, "Several virtual cameras"):
    /// `feed: {camera, hostedBy}` when it shows another virtual camera's stream, `feed: {camera,
    /// sharedWith}` when its own stream feeds others too, and `hosts` for cameras it keeps open
    /// for others only.
    func feedMembers(_ camera: VirtualCameraSlot) -> [(String, JSONValue)] {
        guard let controller = camera.controller else { return [] }
        var members: [(String, JSONValue)] = []
        if let feeding = controller.feeding {
            var feed: [(String, JSONValue)] = [("camera", .string(feeding))]
            switch sharing.role(of: camera.id, camera: feeding) {
            case .own: break
            case let .hosts(guests): feed.append(("sharedWith", .array(guests.map { .string($0) })))
            case let .fedFrom(host): feed.append(("hostedBy", .string(host)))
            }
            members.append(("feed", .object(feed)))
        }
        let others = sharing.hosted(by: camera.id).filter { $0.camera != controller.feeding }
        if !others.isEmpty {
            members.append(("hosts", .array(others.map { .object([("camera", .string($0.camera)), ("for", .array($0.guests.map { .string($0) }))]) })))
        }
        return members
    }
}
