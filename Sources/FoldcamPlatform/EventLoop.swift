import CLinuxShims
import Glibc

/// A single-threaded epoll loop. Handlers run on the thread that called `run()`, one at a time,
/// so the state they touch needs no locks. Other threads reach it only through a `Mailbox`.
public final class EventLoop {
    public struct Interest: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Interest(rawValue: cfoldcam_EPOLLIN)
        public static let writable = Interest(rawValue: cfoldcam_EPOLLOUT)
        /// Priority data: a V4L2 device's events (VIDIOC_DQEVENT).
        public static let priority = Interest(rawValue: cfoldcam_EPOLLPRI)
    }

    /// What epoll reported for a descriptor.
    public struct Readiness: Sendable {
        public let rawValue: UInt32
        public var readable: Bool { rawValue & cfoldcam_EPOLLIN != 0 }
        public var writable: Bool { rawValue & cfoldcam_EPOLLOUT != 0 }
        /// Error or hang-up: the peer is gone (there may still be bytes to read first).
        public var closed: Bool { rawValue & (cfoldcam_EPOLLERR | cfoldcam_EPOLLHUP) != 0 }
    }

    public typealias Handler = (Readiness) -> Void

    /// Work a handler asks for once the current batch of readiness handlers has run
    /// (`schedule`). Costs no system call, where a `Mailbox` posted to the loop's own thread
    /// costs a write, a second epoll_wait and a read.
    public final class Deferred {
        fileprivate let work: () -> Void
        fileprivate var scheduled = false
        fileprivate init(_ work: @escaping () -> Void) { self.work = work }
    }

    private let epoll: FileDescriptor
    private var handlers: [Int32: Handler] = [:]
    private var running = false
    private var scheduled: [Deferred] = []
    /// The list being run, swapped with `scheduled` so running it neither copies nor allocates.
    private var due: [Deferred] = []

    public init() throws(SystemCallError) {
        epoll = FileDescriptor(owning: try Syscall.epollCreate())
    }

    public func register(_ descriptor: FileDescriptor, interest: Interest = .readable, handler: @escaping Handler) throws(SystemCallError) {
        try Syscall.epollControl(epoll.rawValue, EPOLL_CTL_ADD, descriptor.rawValue, events: interest.rawValue | cfoldcam_EPOLLRDHUP)
        handlers[descriptor.rawValue] = handler
    }

    /// `watchHangUp: false` stops reporting the peer's shutdown of its writing side (EPOLLRDHUP),
    /// which stays reported for as long as the descriptor is open once it happened.
    public func modify(_ descriptor: FileDescriptor, interest: Interest, watchHangUp: Bool = true) {
        // Fails only for an unregistered descriptor: a programming error, not a runtime one.
        try? Syscall.epollControl(epoll.rawValue, EPOLL_CTL_MOD, descriptor.rawValue, events: interest.rawValue | (watchHangUp ? cfoldcam_EPOLLRDHUP : 0))
    }

    /// Stops watching a descriptor. Call before closing it.
    public func unregister(_ descriptor: FileDescriptor) {
        try? Syscall.epollControl(epoll.rawValue, EPOLL_CTL_DEL, descriptor.rawValue, events: 0)
        handlers[descriptor.rawValue] = nil
    }

    /// Work that `schedule` runs after a batch of handlers. The loop holds it until
    /// `removeAllHandlers`.
    public func deferred(_ work: @escaping () -> Void) -> Deferred {
        Deferred(work)
    }

    /// Runs `deferred` once, after the handlers of the batch being dispatched (or, called
    /// outside a handler, after the next batch). Scheduling it again before it ran does
    /// nothing; scheduled from its own work, it runs after the next batch, so every descriptor
    /// that became ready in between is dispatched first.
    public func schedule(_ deferred: Deferred) {
        guard !deferred.scheduled else { return }
        deferred.scheduled = true
        scheduled.append(deferred)
    }

    /// Runs until `stop()` is called from a handler.
    public func run() throws(SystemCallError) {
        running = true
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while running {
            // With deferred work waiting, only look at what is ready, do not sleep.
            let timeout: Int32 = scheduled.isEmpty ? -1 : 0
            let count = try events.withUnsafeMutableBufferPointer { buffer throws(SystemCallError) in
                try Syscall.epollWait(epoll.rawValue, buffer, timeoutMilliseconds: timeout)
            }
            for index in 0..<count {
                let event = events[index]
                // A handler earlier in this batch may have unregistered this descriptor.
                guard let handler = handlers[event.data.fd] else { continue }
                handler(Readiness(rawValue: event.events))
                if !running { break }
            }
            guard running, !scheduled.isEmpty else { continue }
            swap(&scheduled, &due)
            var ran = 0
            for deferred in due {
                ran += 1
                deferred.scheduled = false
                deferred.work()
                if !running { break }
            }
            // Stopped midway: what did not run stays scheduled for a later run().
            if ran < due.count { scheduled.append(contentsOf: due[ran...]) }
            due.removeAll(keepingCapacity: true)
        }
    }

    public func stop() {
        running = false
    }

    /// Forgets every handler once the loop has stopped. Handlers capture the objects they serve,
    /// which hold the loop: without this, those cycles outlive the loop (LeakSanitizer reports
    /// them at exit).
    public func removeAllHandlers() {
        precondition(!running, "remove handlers only after run() returned")
        handlers.removeAll()
        scheduled.removeAll()
        due.removeAll()
    }
}
