import FoldcamCore
import FoldcamVideo
import Testing

/// A camera that comes back (hotplug) may reach the engine before its device node is known: the
/// open fails with `unplugged` and the candidates stay the same, so only `retryFailed` (called
/// when the cameras present change) gets the virtual camera going again.
@Suite struct SourceSwitcherRetryTests {
    @Test func aCameraThatFailedIsRetriedWhenTheDevicesChange() {
        var switcher = SourceSwitcher()
        #expect(switcher.decide(candidates: [], noneBecause: .unplugged) == [.feedUnavailable])
        #expect(switcher.decide(candidates: ["inner-front"]) == [.open("inner-front")])
        #expect(switcher.failed("inner-front", reason: .unplugged) == [.close("inner-front")])
        #expect(switcher.readiness == .interrupted(.unplugged))
        #expect(switcher.decide(candidates: ["inner-front"]).isEmpty)
        #expect(switcher.retryFailed() == [.open("inner-front")])
        #expect(switcher.readiness == .switching)
        #expect(switcher.firstFrame(from: "inner-front") == [.feed("inner-front")])
        #expect(switcher.readiness == .ready)
    }

    @Test func retryingWithNothingFailedDoesNothing() {
        var switcher = SourceSwitcher()
        _ = switcher.decide(candidates: ["inner-front"])
        _ = switcher.firstFrame(from: "inner-front")
        #expect(switcher.retryFailed().isEmpty)
        #expect(switcher.feeding == "inner-front")
    }
}
