import FoldcamPlatform
import FoldcamV4L2

/// How many applications read the virtual camera's loopback, so the source camera runs only
/// while someone watches (docs/virtual-camera.md, "Only while watched"). Runs on the daemon's
/// event loop: register `descriptor` with `interest`, call `update()` when it fires.
///
/// - Where v4l2loopback has the client-usage event (v0.13 and later; Ubuntu's patched 0.12 under
///   the older id), it subscribes to it: the module counts readers that stream.
/// - Debian 12's 0.12.7 has no such event. There, inotify on the node wakes the daemon on every
///   open and close by anyone, and on each wake-up it counts the openers other than itself: in
///   /proc/PID/fd where it can see every process (root), else from how many more openers the
///   module admits (`max_openers`: open until EBUSY). inotify is only the wake-up: it merges
///   identical events nobody read yet (two opens in a row read as one), so its events cannot be
///   summed into a count. An opener is not necessarily a streamer: a browser listing cameras
///   opens each for milliseconds, so the caller counts an opener only once it stayed
///   (`openerSettle`).
public final class LoopbackReaders {
    public enum Method: Sendable, Equatable, CustomStringConvertible {
        /// v4l2loopback's client-usage event, by its type.
        case clientUsageEvent(UInt32)
        /// inotify wake-ups, openers counted in /proc/PID/fd.
        case openersInProc
        /// inotify wake-ups, openers counted by a `max_openers` probe (for a daemon that cannot
        /// see other users' processes).
        case openersByProbe

        public var description: String {
            switch self {
            case let .clientUsageEvent(type): return "v4l2loopback's client-usage event (0x\(String(type, radix: 16, uppercase: true)))"
            case .openersInProc: return "inotify on the node, openers counted in /proc/PID/fd"
            case .openersByProbe: return "inotify on the node, openers counted by probing v4l2loopback's max_openers"
            }
        }
    }

    /// The client-usage event's type: since v0.13 (V4L2_EVENT_PRIVATE_START + 0x08E00000 + 1),
    /// and before it, in the 0.12 builds that had it (V4L2_EVENT_PRIVATE_START).
    public static let eventTypes: [UInt32] = [V4L2Device.privateEventStart + 0x08E0_0000 + 1, V4L2Device.privateEventStart]
    /// How long an opener must stay before it counts, with the opener-counting methods.
    public static let openerSettle: UInt64 = 150_000_000

    public let node: String
    public let method: Method
    public let descriptor: FileDescriptor
    public let interest: EventLoop.Interest
    public private(set) var count = 0
    /// The event's subscriber (kept open: closing it ends the subscription).
    private let device: V4L2Device?
    private let watch: OpenCloseWatch?
    /// The daemon's own descriptors on the node (its output), left out of a probe's count.
    private let own: Int

    /// Starts watching `node`; `ownDescriptors` is how many descriptors this daemon keeps open
    /// on it (the producer's output).
    public init(node: String, ownDescriptors: Int) throws(SystemCallError) {
        self.node = node
        own = ownDescriptors
        let device = try V4L2Device(node: node, access: .kernel, nonBlocking: true)
        for type in Self.eventTypes where try device.subscribe(event: type) {
            self.device = device
            watch = nil
            method = .clientUsageEvent(type)
            descriptor = FileDescriptor(owning: try Syscall.duplicate(device.pollDescriptor, name: "dup", subject: node))
            interest = .priority
            _ = update()
            return
        }
        device.close()
        self.device = nil
        // The watch starts before the first count, so no open or close falls between them.
        let watch = try OpenCloseWatch(path: node)
        self.watch = watch
        descriptor = watch.descriptor
        interest = .readable
        method = OpenFileHolders.seesOtherUsers ? .openersInProc : .openersByProbe
        _ = update()
    }

    /// Reads what woke the loop; the number of readers now.
    public func update() -> Int {
        if let device {
            while let event = try? device.dequeueEvent() {
                if case let .clientUsageEvent(type) = method, event.type == type { count = Int(event.value) }
            }
            return count
        }
        guard let watch else { return count }
        let seen = watch.drain()
        if method == .openersInProc {
            count = OpenFileHolders.count(path: node).descriptors
        } else if let probed = Self.probe(node: node, own: own) {
            count = probed
            // The probe's own opens and closes woke nobody yet: they are not news. (An opener
            // that closed in the microseconds since the probe counted it is seen at the next
            // open or close.)
            _ = watch.drain()
        } else {
            // No limit to probe: the events themselves, as well as they go (merged opens undercount).
            count = max(0, count + seen.opens - seen.closes)
        }
        return count
    }

    /// Openers of `node` besides the daemon's `own`, from v4l2loopback's `max_openers`: open it
    /// until the module refuses (EBUSY), then close again. nil when the limit cannot be read.
    /// Holds every free slot for a few microseconds: an application opening just then is
    /// refused once.
    static func probe(node: String, own: Int) -> Int? {
        let name = node.split(separator: "/").last.map(String.init) ?? node
        guard let text = try? FileContents.readAttribute("/sys/class/video4linux/\(name)/max_openers", subject: node, call: "max_openers"),
              let limit = Int(text.filter { $0.isNumber }), limit > 0, limit <= 1024 else { return nil }
        var held: [FileDescriptor] = []
        defer { for descriptor in held { descriptor.close() } }
        while held.count < limit {
            do {
                held.append(try FileDescriptor.open(node, .readOnly, nonBlocking: true))
            } catch {
                guard error.errno == .busy else { return nil }
                break
            }
        }
        return max(0, limit - held.count - own)
    }
}
