import FoldcamCore
import FoldcamVideo
import Synchronization

/// One physical camera's frames handed from the producer that streams it (the host) to one
/// other virtual camera's producer (a guest): docs/virtual-camera.md, "One camera, two virtual
/// cameras". Holds one frame, the newest: the host copies each new frame in (one copy per
/// guest), the guest copies it out at its output tick. Nothing queues: a guest slower than the
/// camera skips frames, and the host never waits for a guest (a frame arriving while the guest
/// copies the previous one out is dropped for that guest).
public final class SharedCameraFeed: Sendable, Equatable, CustomStringConvertible {
    /// The physical camera, and the virtual camera whose producer streams it.
    public let camera: String
    public let host: String
    private let slot: Mutex<Slot>
    private let dropped = Atomic<UInt64>(0)

    private struct Slot {
        var bytes: [UInt8] = []
        var timestamp: UInt64 = 0
        /// The host's sensor was turned 180° for its own output: the frame is upside down.
        var flipped = false
        /// Frames put in so far (0: none yet).
        var sequence: UInt64 = 0
        var ended: (reason: Readiness.Reason, message: String)?
    }

    public init(camera: String, host: String) {
        self.camera = camera
        self.host = host
        slot = Mutex(Slot())
    }

    public static func == (a: SharedCameraFeed, b: SharedCameraFeed) -> Bool { a === b }
    public var description: String { "\(camera) shared by \(host)" }

    // MARK: The host's side

    /// Copies a frame in, replacing the one not taken yet. Dropped when the guest is copying
    /// the previous frame out right now: the host does not wait.
    func put(_ bytes: UnsafeRawBufferPointer, count: Int, timestamp: UInt64, flipped: Bool) {
        let copied: Bool? = slot.withLockIfAvailable { slot in
            guard slot.ended == nil else { return true }
            if slot.bytes.count != count { slot.bytes = [UInt8](repeating: 0, count: count) }
            slot.bytes.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<count])) }
            slot.timestamp = timestamp
            slot.flipped = flipped
            slot.sequence += 1
            return true
        }
        if copied == nil { dropped.add(1, ordering: .relaxed) }
    }

    /// The host's stream of the camera ended: the guest reports it as its own camera's failure.
    func end(_ reason: Readiness.Reason, message: String) {
        slot.withLock { slot in
            if slot.ended == nil { slot.ended = (reason, message) }
        }
    }

    // MARK: The guest's side

    /// Runs `body` on the newest frame (its bytes, timestamp, and whether the host's sensor
    /// turned it 180°) when it is newer than `sequence`; returns its sequence (nil: nothing new).
    func take(after sequence: UInt64, _ body: (UnsafeRawBufferPointer, UInt64, Bool) -> Void) -> UInt64? {
        slot.withLock { slot in
            guard slot.sequence > sequence else { return nil }
            slot.bytes.withUnsafeBytes { body($0, slot.timestamp, slot.flipped) }
            return slot.sequence
        }
    }

    /// Why the host's stream ended, once it has.
    var ended: (reason: Readiness.Reason, message: String)? { slot.withLock { $0.ended } }

    /// Frames the host put in (for the tests and the metrics).
    public var framesPut: UInt64 { slot.withLock { $0.sequence } }
    /// Frames dropped because the guest was copying the previous one out.
    public var framesDropped: UInt64 { dropped.load(ordering: .relaxed) }
}

/// A producer's shared cameras, on its thread: the feeds it fills for guests (as a host) and
/// the feeds it shows (as a guest). Kept apart from the producer's own streams: a guest's
/// camera has no stream in its producer, and a host's stream does not change for its guests.
struct SharedFeeds {
    /// Host side: the guests' feeds of each camera this producer streams.
    private(set) var hosted: [String: [SharedCameraFeed]] = [:]
    /// Guest side: the feed each camera comes through, and the last frame taken from it.
    private var joined: [String: (feed: SharedCameraFeed, taken: UInt64)] = [:]
    private var delivered: Set<String> = []

    // MARK: Host

    mutating func add(_ feed: SharedCameraFeed) {
        hosted[feed.camera, default: []].append(feed)
    }

    mutating func remove(_ feed: SharedCameraFeed) {
        hosted[feed.camera]?.removeAll { $0 === feed }
        if hosted[feed.camera]?.isEmpty == true { hosted[feed.camera] = nil }
    }

    func isHosted(_ camera: String) -> Bool { hosted[camera] != nil }

    /// A new frame of `camera`: one copy into each guest's feed.
    func put(_ camera: String, bytes: UnsafeRawBufferPointer, count: Int, timestamp: UInt64, flipped: Bool = false) {
        guard let feeds = hosted[camera], bytes.count >= count else { return }
        for feed in feeds { feed.put(bytes, count: count, timestamp: timestamp, flipped: flipped) }
    }

    /// `camera`'s stream ended: its guests report the failure; their feeds are done.
    mutating func end(_ camera: String, reason: Readiness.Reason, message: String) {
        for feed in hosted.removeValue(forKey: camera) ?? [] { feed.end(reason, message: message) }
    }

    /// The host stops: its guests report their camera busy, and try it again themselves.
    mutating func endAll(message: String) {
        for camera in Array(hosted.keys) { end(camera, reason: .busy, message: message) }
    }

    // MARK: Guest

    mutating func join(_ feed: SharedCameraFeed) {
        joined[feed.camera] = (feed, 0)
        delivered.remove(feed.camera)
    }

    mutating func leave(_ camera: String) {
        joined[camera] = nil
        delivered.remove(camera)
    }

    func isJoined(_ camera: String) -> Bool { joined[camera] != nil }

    /// Copies `camera`'s newest frame out of its feed when there is a new one; whether there was.
    mutating func take(_ camera: String, _ body: (UnsafeRawBufferPointer, UInt64, Bool) -> Void) -> Bool {
        guard let entry = joined[camera], let taken = entry.feed.take(after: entry.taken, body) else { return false }
        joined[camera]!.taken = taken
        return true
    }

    /// What the feeds say since last asked: a camera's first frame, or its host's stream
    /// ending (that camera is left).
    mutating func events() -> [VirtualCameraProducer.Event] {
        var events: [VirtualCameraProducer.Event] = []
        for (camera, entry) in joined {
            if let ended = entry.feed.ended {
                leave(camera)
                events.append(.failed(camera: camera, reason: ended.reason, message: "\(ended.message) (virtual camera \(entry.feed.host) streamed it)"))
            } else if !delivered.contains(camera), entry.feed.framesPut > 0 {
                delivered.insert(camera)
                events.append(.firstFrame(camera: camera))
            }
        }
        return events
    }
}
