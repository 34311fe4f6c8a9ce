import Glibc

/// A reusable poll(2) set for threads that wait on a few descriptors without an epoll loop
/// (the producer, its setup thread, start-up's wait for the first inventory). Reusing one set
/// keeps a thread that wakes every frame from allocating.
package struct PollSet {
    private var entries: [pollfd] = []

    package init() {}

    package var count: Int { entries.count }

    package mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    /// Adds `fd`, watched for input when `readable` (errors and hang-ups are always reported).
    package mutating func append(_ fd: Int32, readable: Bool = true) {
        entries.append(pollfd(fd: fd, events: readable ? Int16(POLLIN) : 0, revents: 0))
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit); how many descriptors have events (0 on
    /// timeout or an interrupted wait).
    @discardableResult
    package mutating func wait(timeoutMilliseconds: Int32) throws(SystemCallError) -> Int {
        try Syscall.poll(&entries, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// What the last `wait` reported for the entry at `index`.
    package func events(at index: Int) -> PollEvents {
        PollEvents(rawValue: entries[index].revents)
    }
}

package struct PollEvents: Sendable {
    let rawValue: Int16
    package var any: Bool { rawValue != 0 }
    package var readable: Bool { rawValue & Int16(POLLIN) != 0 }
    /// Error or hang-up.
    package var failed: Bool { rawValue & Int16(POLLERR | POLLHUP) != 0 }
}
