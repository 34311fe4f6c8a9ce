@testable import FoldcamPlatform
import Testing

/// `EventLoop.schedule`: deferred work runs after the batch that asked for it, once however
/// often it was asked, and work that asks again runs only after what became ready meanwhile.
@Suite struct EventLoopTests {
    @Test func deferredWorkRunsAfterTheBatchOnceAndYieldsToReadyDescriptors() throws {
        let loop = try EventLoop()
        let first = try Mailbox<Int>()
        let second = try Mailbox<Int>()
        var seen: [String] = []
        var runs = 0
        var work: EventLoop.Deferred!
        work = loop.deferred {
            runs += 1
            seen.append("deferred \(runs)")
            if runs == 1 {
                // Ready before the work runs again: its handler must come first.
                second.post(2)
                loop.schedule(work)
            } else {
                loop.stop()
            }
        }
        try loop.register(first.descriptor) { _ in
            _ = first.drain()
            seen.append("first")
            loop.schedule(work)
            loop.schedule(work)  // already scheduled: still one run
            seen.append("first done")
        }
        try loop.register(second.descriptor) { _ in
            _ = second.drain()
            seen.append("second")
        }
        first.post(1)
        try loop.run()
        loop.removeAllHandlers()
        #expect(seen == ["first", "first done", "deferred 1", "second", "deferred 2"])
    }

    @Test func workScheduledWhenTheLoopStoppedRunsInTheNextRun() throws {
        let loop = try EventLoop()
        let wake = try Mailbox<Int>()
        var ran: [String] = []
        let a = loop.deferred { ran.append("a"); loop.stop() }
        let b = loop.deferred { ran.append("b"); loop.stop() }
        try loop.register(wake.descriptor) { _ in
            _ = wake.drain()
            loop.schedule(a)
            loop.schedule(b)
        }
        wake.post(1)
        try loop.run()
        #expect(ran == ["a"])
        // b was skipped by the stop but stays scheduled: the next run does it without sleeping.
        try loop.run()
        loop.removeAllHandlers()
        #expect(ran == ["a", "b"])
    }
}
