import FoldcamVideo
import Testing

@Suite struct SwitchTimingTests {
    @Test func coldSwitchReportsTheCameraStartInsideTheDecisionToFeedTime() {
        var timing = SwitchTiming()
        timing.decided("outer-front", at: 1_000)
        timing.opened("outer-front", at: 1_100)
        timing.firstFrame("outer-front", at: 41_100)
        timing.firstFrame("outer-front", at: 81_100)  // later frames do not move the first
        let report = timing.fed("outer-front", at: 42_000)
        #expect(report == SwitchTiming.Report(camera: "outer-front", decisionToFeed: 41_000, cameraStart: 40_000, prewarmed: false))
    }

    @Test func prewarmedSwitchIsMarkedAndCostsOnlyTheHop() {
        var timing = SwitchTiming()
        timing.opened("outer-front", at: 100)
        timing.firstFrame("outer-front", at: 500)
        timing.decided("outer-front", at: 9_000)
        let report = timing.fed("outer-front", at: 9_020)
        #expect(report?.prewarmed == true)
        #expect(report?.decisionToFeed == 20)
        #expect(report?.cameraStart == 400)
    }

    @Test func aFeedWithoutADecisionReportsNothingAndEachDecisionReportsOnce() {
        var timing = SwitchTiming()
        #expect(timing.fed("back", at: 5) == nil)
        timing.decided("back", at: 10)
        #expect(timing.fed("back", at: 30)?.decisionToFeed == 20)
        #expect(timing.fed("back", at: 40) == nil)
        timing.decided(nil, at: 50)
        #expect(timing.fed("back", at: 60) == nil)
    }

    @Test func reopeningForgetsTheEarlierStream() {
        var timing = SwitchTiming()
        timing.opened("back", at: 0)
        timing.firstFrame("back", at: 10)
        timing.closed("back")
        timing.decided("back", at: 100)
        timing.opened("back", at: 110)
        timing.firstFrame("back", at: 300)
        let report = timing.fed("back", at: 310)
        #expect(report?.prewarmed == false)
        #expect(report?.cameraStart == 190)
    }
}
