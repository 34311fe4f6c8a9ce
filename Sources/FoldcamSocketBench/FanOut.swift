import FoldcamPlatform
import CLinuxShims
import Glibc
import Synchronization

/// Subscribers spread over a few threads, each waiting on its sockets with epoll. Every socket
/// receives one `posture` event per hinge change; a thread records when each of its sockets
/// received each change, and per change when the last of them did.
final class SubscriberThreads: @unchecked Sendable {
    // @unchecked: each thread writes only its own row of `lastArrival`; the main thread reads
    // the rows after `arrivals` (an atomic, sequentially consistent) says every event is in.
    let threadCount: Int
    let changes: Int
    private var lastArrival: [[UInt64]]
    /// Every arrival of each thread: (change, when), reserved up front so recording one does
    /// not allocate while the daemon sends.
    private var everyArrival: [[(change: Int, at: UInt64)]]
    let arrivals = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
    private var sockets: [[LineSocket]]
    private var threads: [pthread_t] = []

    init(sockets: [LineSocket], threadCount: Int, changes: Int) {
        self.threadCount = threadCount
        self.changes = changes
        var groups = [[LineSocket]](repeating: [], count: threadCount)
        for (index, socket) in sockets.enumerated() { groups[index % threadCount].append(socket) }
        self.sockets = groups
        lastArrival = [[UInt64]](repeating: [UInt64](repeating: 0, count: changes), count: threadCount)
        everyArrival = groups.map { group in
            var arrivals: [(change: Int, at: UInt64)] = []
            arrivals.reserveCapacity(group.count * changes)
            return arrivals
        }
    }

    func start() throws {
        for index in 0..<threadCount {
            let context = Unmanaged.passRetained(ThreadContext(owner: self, index: index)).toOpaque()
            var thread = pthread_t()
            guard pthread_create(&thread, nil, { raw in
                let context = Unmanaged<ThreadContext>.fromOpaque(raw!).takeRetainedValue()
                context.owner.serve(context.index)
                return nil
            }, context) == 0 else { throw BenchError("pthread_create failed") }
            threads.append(thread)
        }
    }

    func join() {
        for thread in threads { pthread_join(thread, nil) }
    }

    /// When the last subscriber received change `index` (after join, or once arrivals say so).
    func lastArrival(ofChange index: Int) -> UInt64 {
        (0..<threadCount).map { lastArrival[$0][index] }.max() ?? 0
    }

    /// Each subscriber's delay for each change from `first` on: its arrival minus `starts[change]`
    /// (after join).
    func delays(from first: Int, starts: [UInt64]) -> [UInt64] {
        everyArrival.flatMap { $0.lazy.filter { $0.change >= first }.map { $0.at - starts[$0.change] } }
    }

    private final class ThreadContext {
        let owner: SubscriberThreads
        let index: Int
        init(owner: SubscriberThreads, index: Int) {
            self.owner = owner
            self.index = index
        }
    }

    private func serve(_ threadIndex: Int) {
        let mine = sockets[threadIndex]
        let epoll = epoll_create1(cfoldcam_EPOLL_CLOEXEC)
        var received = [Int](repeating: 0, count: mine.count)
        for (slot, socket) in mine.enumerated() {
            _ = fcntl(socket.fd, F_SETFL, fcntl(socket.fd, F_GETFL) | O_NONBLOCK)
            var event = epoll_event()
            event.events = cfoldcam_EPOLLIN
            event.data.u64 = UInt64(slot)
            epoll_ctl(epoll, EPOLL_CTL_ADD, socket.fd, &event)
        }
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var done = 0
        while done < mine.count {
            let count = epoll_wait(epoll, &events, Int32(events.count), 30_000)
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                failures.add(1, ordering: .sequentiallyConsistent)
                break
            }
            let now = MonotonicClock.nanoseconds
            for index in 0..<Int(count) {
                let slot = Int(events[index].data.u64)
                while true {
                    let length = chunk.withUnsafeMutableBytes { recv(mine[slot].fd, $0.baseAddress, $0.count, 0) }
                    if length <= 0 { break }
                    // Count complete lines: one per event.
                    for byte in chunk[..<length] where byte == UInt8(ascii: "\n") {
                        let change = received[slot]
                        received[slot] += 1
                        if change < changes {
                            if now > lastArrival[threadIndex][change] { lastArrival[threadIndex][change] = now }
                            everyArrival[threadIndex].append((change, now))
                            arrivals.add(1, ordering: .sequentiallyConsistent)
                        }
                        if received[slot] == changes { done += 1 }
                    }
                }
            }
        }
        close(epoll)
    }
}
