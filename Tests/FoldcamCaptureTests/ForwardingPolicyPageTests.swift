@testable import FoldcamCapture
import Testing

/// Which loopback page each write takes, and when a shown page goes back to its camera: the
/// rest of `ForwardingPolicy`, as tables (`ForwardingPolicyTests.run`).
@Suite struct ForwardingPolicyPageTests {
    typealias Scenario = ForwardingPolicyTests.Scenario

    static let scenarios: [Scenario] = [
        Scenario(name: "an unchanged frame of the daemon's own is queued again, not copied again", steps: [
            .on(.mapped(pages: 4), []),
            .own(1, .copyInto(page: 0), published: true),
            .own(1, .queue(page: 0), published: true),
            .own(2, .copyInto(page: 1), published: true),
            // A frame with no version (a camera's, copied) is always copied, into the free page
            // shown longest ago (never, here): not back into the one a reader may be behind on.
            .own(nil, .copyInto(page: 2), published: true),
            .own(nil, .copyInto(page: 3), published: true),
            .own(nil, .copyInto(page: 0), published: true),
        ]),
        Scenario(name: "with the pages lent and the idle frame shown, a new own frame repeats the shown page", steps: [
            .on(.mapped(pages: 4), []),
            .own(1, .copyInto(page: 0), published: true),
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: [1, 2, 3])]),
            .own(2, .queue(page: 0), published: false),
        ]),
        Scenario(name: "once a camera's page is shown, an own frame goes into the free page", steps: ForwardingPolicyTests.innerStreamsZeroCopy + [
            .own(5, .copyInto(page: 0), published: true),
            .lent(page: 3),
            // The own version is no longer on screen: copied again.
            .own(5, .copyInto(page: 0), published: true),
        ]),
        Scenario(name: "after the mapping is abandoned no page is taken", steps: [
            .on(.mapped(pages: 4), []),
            .on(.tick(loopbackDistinct: false), [.abandonMapping, .report(camera: nil, path: .copy(.readerShrankLoopback))]),
            .own(1, .nothing, published: false),
        ]),
    ]

    @Test(arguments: scenarios) func scenario(_ scenario: Scenario) {
        _ = ForwardingPolicyTests.run(scenario)
    }

    /// A reader of v4l2loopback 0.12.7 may be a frame behind: a page shown goes back to its
    /// camera when the frame after next is shown at the output's pace (30 fps here), not before.
    @Test func aShownPageGoesBackWhenTheFrameAfterNextIsShown() {
        var policy = ForwardingPolicy()
        let a = BufferID(stream: 1, index: 0, page: 0), b = BufferID(stream: 1, index: 1, page: 1), c = BufferID(stream: 1, index: 2, page: 2)
        let interval: UInt64 = 33_333_333
        // Each tick: the frame shown lets go of the one before, and the write goes out.
        func tick(_ released: [BufferID], at now: UInt64) -> [BufferID] {
            defer { policy.replaced(at: now) }
            return policy.letGo(released, now: now, interval: interval)
        }
        #expect(tick([], at: 0).isEmpty)  // a shown: nothing let go yet
        #expect(tick([a], at: interval).isEmpty)  // b shown, a lingers for a reader behind
        #expect(tick([b], at: 2 * interval) == [a])  // c shown: a goes back
        #expect(tick([c], at: 3 * interval) == [b])
        #expect(policy.lingering.map(\.page) == [c])
    }

    /// Ticks that come close together (one late, the next on time) do not hand back the page a
    /// reader one frame behind may still read; the next tick does, even with no new frame.
    @Test func aPageLingersInTimeNotOnlyInFrames() {
        var policy = ForwardingPolicy()
        let a = BufferID(stream: 1, index: 0, page: 0), b = BufferID(stream: 1, index: 1, page: 1)
        let interval: UInt64 = 33_333_333
        #expect(policy.letGo([a], now: 1_000_000_000, interval: interval).isEmpty)  // b shown late
        policy.replaced(at: 1_000_000_000)
        #expect(policy.letGo([b], now: 1_013_000_000, interval: interval).isEmpty)  // c shown 13 ms later: a stays
        policy.replaced(at: 1_013_000_000)
        #expect(policy.lingering.map(\.page) == [a, b])
        #expect(policy.endLinger(now: 1_030_000_000, interval: interval) == [a])  // a tick with no frame: a goes back
        #expect(policy.endLinger(now: 1_040_000_000, interval: interval) == [b])
        #expect(policy.lingering.isEmpty)
    }

    /// A page let go between ticks (the daemon's idle or unavailable frame replaces a camera's)
    /// is still the newest frame until the next write goes out: its linger starts only then. A
    /// write that could only repeat it (no page free) does not start it either. A camera's own
    /// buffer goes back at once.
    @Test func aPageLingersFromTheWriteThatReplacedIt() {
        var policy = ForwardingPolicy()
        _ = policy.handle(.mapped(pages: 4))
        _ = policy.handle(.open(camera: "inner", node: "/dev/video0"))
        _ = policy.publishLent(page: 0)
        let page = BufferID(stream: 1, index: 0, page: 0), own = BufferID(stream: 2, index: 3)
        let interval: UInt64 = 33_333_333
        #expect(policy.letGo([page, own], now: 1_000_000_000, interval: interval) == [own])
        #expect(policy.endLinger(now: 2_000_000_000, interval: interval).isEmpty)  // no write since
        policy.replaced(at: 2_000_000_000)  // a repeat of page 0: still the newest
        #expect(policy.endLinger(now: 3_000_000_000, interval: interval).isEmpty)
        let own1 = policy.publishOwn(version: 1)
        #expect(own1.publish == .copyInto(page: 3) && own1.published)
        policy.replaced(at: 3_000_000_000)
        #expect(policy.endLinger(now: 3_010_000_000, interval: interval).isEmpty)  // a reader may be a frame behind
        #expect(policy.endLinger(now: 3_000_000_000 + interval, interval: interval) == [page])
    }

    /// Only a stream that lent pages returns them; a stream on its own buffers leaves the book
    /// as it was.
    @Test func theBookFollowsLendingRetiringAndReturning() {
        var policy = ForwardingPolicy()
        _ = policy.handle(.mapped(pages: 4))
        _ = policy.handle(.open(camera: "inner", node: "/dev/video0"))
        #expect(policy.book?.owners == [.lent(stream: 1), .lent(stream: 1), .lent(stream: 1), .free])
        _ = policy.handle(.opened(camera: "inner", ticket: 1, lent: true, path: .zeroCopy))
        _ = policy.handle(.close(camera: "inner"))
        #expect(policy.book?.owners == [.returning(stream: 1), .returning(stream: 1), .returning(stream: 1), .free])
        #expect(!policy.canLend)
        _ = policy.handle(.returned(lender: 1, shown: nil))
        #expect(policy.book?.owners == Array(repeating: .free, count: 4))
        #expect(policy.canLend)
        #expect(policy.streams.isEmpty && policy.opening.isEmpty)
    }
}
