@testable import FoldcamPlatform
import Glibc
import Synchronization
import Testing

/// `Worker`: jobs run off the caller's thread, one at a time, in the order given.
@Suite struct WorkerTests {
    final class Seen: Sendable {
        let values = Mutex<[Int]>([])
        func append(_ value: Int) { values.withLock { $0.append(value) } }
        var all: [Int] { values.withLock { $0 } }
    }

    @Test func jobsRunInTheOrderGiven() throws {
        let worker = try Worker(name: "test-worker")
        let seen = Seen()
        for value in 0..<200 { worker.submit { seen.append(value) } }
        worker.waitForSubmitted()
        #expect(seen.all == Array(0..<200))
        worker.stop()
    }

    @Test func stopRunsWhatWasGivenAndNothingLater() throws {
        let worker = try Worker(name: "test-worker")
        let seen = Seen()
        // The first job waits until the rest are queued behind it.
        let gate = try Mailbox<Bool>()
        worker.submit {
            var poll = PollSet()
            poll.append(gate.descriptor.rawValue)
            while gate.drain().isEmpty { _ = try? poll.wait(timeoutMilliseconds: -1) }
            seen.append(0)
        }
        worker.submit { seen.append(1) }
        gate.post(true)
        worker.stop()
        #expect(seen.all == [0, 1])
        worker.submit { seen.append(2) }
        worker.stop()
        #expect(seen.all == [0, 1])
    }

    @Test func jobsRunOffTheCallersThread() throws {
        let worker = try Worker(name: "test-worker")
        let caller = pthread_self()
        let ran = Mutex<pthread_t?>(nil)
        worker.submit { ran.withLock { $0 = pthread_self() } }
        worker.waitForSubmitted()
        let id = ran.withLock { $0 }
        #expect(id != nil && id != caller)
        worker.stop()
    }
}
