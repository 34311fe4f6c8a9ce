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
            // A frame with no version (a camera's, copied) is always copied.
            .own(nil, .copyInto(page: 0), published: true),
            .own(nil, .copyInto(page: 1), published: true),
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
        let a = BufferID(stream: 1, index: 0), b = BufferID(stream: 1, index: 1), c = BufferID(stream: 1, index: 2)
        let interval: UInt64 = 33_333_333
        #expect(policy.showLent(released: [], now: 0, interval: interval).isEmpty)  // a shown: nothing let go yet
        #expect(policy.showLent(released: [a], now: interval, interval: interval).isEmpty)  // b shown, a lingers for a reader behind
        #expect(policy.showLent(released: [b], now: 2 * interval, interval: interval) == [a])  // c shown: a goes back
        #expect(policy.showLent(released: [c], now: 3 * interval, interval: interval) == [b])
        #expect(policy.lingering.map(\.page) == [c])
    }

    /// Ticks that come close together (one late, the next on time) do not hand back the page a
    /// reader one frame behind may still read; the next tick does, even with no new frame.
    @Test func aPageLingersInTimeNotOnlyInFrames() {
        var policy = ForwardingPolicy()
        let a = BufferID(stream: 1, index: 0), b = BufferID(stream: 1, index: 1)
        let interval: UInt64 = 33_333_333
        #expect(policy.showLent(released: [a], now: 1_000_000_000, interval: interval).isEmpty)  // b shown late
        #expect(policy.showLent(released: [b], now: 1_013_000_000, interval: interval).isEmpty)  // c shown 13 ms later: a stays
        #expect(policy.lingering.map(\.page) == [a, b])
        #expect(policy.endLinger(now: 1_030_000_000, interval: interval) == [a])  // a tick with no frame: a goes back
        #expect(policy.endLinger(now: 1_040_000_000, interval: interval) == [b])
        #expect(policy.lingering.isEmpty)
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
