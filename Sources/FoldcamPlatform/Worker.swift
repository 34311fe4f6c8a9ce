import Synchronization

/// A thread that runs jobs one at a time, in the order they were given: the work the event
/// loop hands off because it may block or take long (state file writes, snapshot encodes,
/// sensor flips). Built on `OSThread` and fed through a `Mailbox`; foldcam has no other kind
/// of worker (no dispatch queues).
public final class Worker: Sendable {
    public typealias Job = @Sendable () -> Void

    private enum Message: Sendable {
        case run(Job)
        case stop
    }

    private let inbox: Mailbox<Message>
    private let thread: OSThread
    private let stopped = Atomic<Bool>(false)

    /// Starts the thread (`name` shows in top -H and gdb; at most 15 bytes are kept).
    public init(name: String) throws(SystemCallError) {
        let inbox = try Mailbox<Message>()
        self.inbox = inbox
        thread = try OSThread.start(name: name) { Self.serve(inbox) }
    }

    /// Runs `job` on the worker after the jobs given before it.
    public func submit(_ job: @escaping Job) {
        inbox.post(.run(job))
    }

    /// Waits until the jobs given so far have run (at stop, so the last write is on disk).
    /// Not from a job: the worker would wait for itself.
    public func waitForSubmitted() {
        guard let done = try? Mailbox<Bool>() else { return }
        submit { done.post(true) }
        var poll = PollSet()
        poll.append(done.descriptor.rawValue)
        while done.drain().isEmpty {
            guard (try? poll.wait(timeoutMilliseconds: -1)) != nil else { return }
        }
    }

    /// Runs the jobs given so far, then ends the thread and waits for it. Jobs given later
    /// never run. Not from a job.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        inbox.post(.stop)
        thread.join()
    }

    deinit {
        // Let go without `stop`: the jobs given still run; nobody waits for the thread.
        if !stopped.load(ordering: .acquiring) {
            inbox.post(.stop)
            thread.detach()
        }
    }

    private static func serve(_ inbox: Mailbox<Message>) {
        var poll = PollSet()
        poll.append(inbox.descriptor.rawValue)
        while true {
            for message in inbox.drain() {
                switch message {
                case let .run(job): job()
                case .stop: return
                }
            }
            guard (try? poll.wait(timeoutMilliseconds: -1)) != nil else { return }
        }
    }
}
