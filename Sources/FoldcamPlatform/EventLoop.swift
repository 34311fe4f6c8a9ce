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

    private let epoll: FileDescriptor
    private var handlers: [Int32: Handler] = [:]
    private var running = false

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

    /// Runs until `stop()` is called from a handler.
    public func run() throws(SystemCallError) {
        running = true
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while running {
            let count = try events.withUnsafeMutableBufferPointer { buffer throws(SystemCallError) in
                try Syscall.epollWait(epoll.rawValue, buffer, timeoutMilliseconds: -1)
            }
            for index in 0..<count {
                let event = events[index]
                // A handler earlier in this batch may have unregistered this descriptor.
                guard let handler = handlers[event.data.fd] else { continue }
                handler(Readiness(rawValue: event.events))
                if !running { break }
            }
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
    }
}
