import FoldcamCore
import FoldcamVideo
import Testing

@Suite struct SourceSwitcherTests {
    @Test func firstSourceStartsThenStreams() {
        var switcher = SourceSwitcher()
        #expect(switcher.decide(candidates: ["inner-front"]) == [.open("inner-front")])
        #expect(switcher.readiness == .switching)
        #expect(switcher.firstFrame(from: "inner-front") == [.feed("inner-front")])
        #expect(switcher.readiness == .ready)
        #expect(switcher.decide(candidates: ["inner-front"]).isEmpty)
    }

    @Test func switchingKeepsTheOldSourceUntilTheNewOneDelivers() {
        var switcher = SourceSwitcher()
        _ = switcher.decide(candidates: ["inner-front"])
        _ = switcher.firstFrame(from: "inner-front")
        #expect(switcher.decide(candidates: ["outer-front", "back"]) == [.open("outer-front")])
        #expect(switcher.feeding == "inner-front")
        #expect(switcher.readiness == .switching)
        #expect(switcher.firstFrame(from: "outer-front") == [.feed("outer-front"), .close("inner-front")])
        #expect(switcher.feeding == "outer-front")
        #expect(switcher.readiness == .ready)
    }

    @Test func aFailedOpenKeepsTheOldSourceThenTriesTheNextCandidate() {
        var switcher = SourceSwitcher()
        _ = switcher.decide(candidates: ["inner-front"])
        _ = switcher.firstFrame(from: "inner-front")
        _ = switcher.decide(candidates: ["outer-front", "back"])
        let actions = switcher.failed("outer-front", reason: .busy)
        #expect(actions == [.close("outer-front"), .open("back")])
        #expect(switcher.feeding == "inner-front")
        #expect(switcher.lastFailure?.camera == "outer-front")
        #expect(switcher.firstFrame(from: "back") == [.feed("back"), .close("inner-front")])
    }

    @Test func noCandidateLeftShowsTheUnavailableFrame() {
        var switcher = SourceSwitcher()
        _ = switcher.decide(candidates: ["outer-front"])
        _ = switcher.firstFrame(from: "outer-front")
        #expect(switcher.decide(candidates: [], noneBecause: .occluded) == [.close("outer-front"), .feedUnavailable])
        #expect(switcher.readiness == .interrupted(.occluded))
        // And comes back by itself when a camera returns.
        #expect(switcher.decide(candidates: ["outer-front"]) == [.open("outer-front")])
        #expect(switcher.firstFrame(from: "outer-front") == [.feed("outer-front")])
        #expect(switcher.readiness == .ready)
    }

    @Test func theStreamingSourceVanishing() {
        var switcher = SourceSwitcher()
        _ = switcher.decide(candidates: ["back", "outer-front"])
        _ = switcher.firstFrame(from: "back")
        let actions = switcher.failed("back", reason: .unplugged)
        #expect(actions == [.close("back"), .feedUnavailable, .open("outer-front")])
        #expect(switcher.readiness == .switching)
        _ = switcher.failed("outer-front", reason: .busy)
        #expect(switcher.readiness == .interrupted(.busy))
    }

    @Test func changingYourMindMidSwitch() {
        var switcher = SourceSwitcher()
        _ = switcher.decide(candidates: ["inner-front"])
        _ = switcher.firstFrame(from: "inner-front")
        _ = switcher.decide(candidates: ["outer-front"])
        // Back to the old camera before the new one delivered: cancel the new one.
        #expect(switcher.decide(candidates: ["inner-front"]) == [.close("outer-front")])
        #expect(switcher.readiness == .ready)
        // A late frame from the cancelled camera changes nothing.
        #expect(switcher.firstFrame(from: "outer-front").isEmpty)
    }
}

@Suite struct PrewarmTests {
    func streaming(_ camera: String) -> SourceSwitcher {
        var switcher = SourceSwitcher()
        _ = switcher.decide(candidates: [camera])
        _ = switcher.firstFrame(from: camera)
        return switcher
    }

    @Test func aWarmCameraThatDeliversIsTakenOverAtOnce() {
        var switcher = streaming("inner-front")
        #expect(switcher.prewarm("outer-front") == [.open("outer-front")])
        #expect(switcher.readiness == .ready)  // still showing inner-front
        #expect(switcher.firstFrame(from: "outer-front").isEmpty)
        // The fold crosses the boundary: a pointer swap, no switching phase.
        #expect(switcher.decide(candidates: ["outer-front"]) == [.feed("outer-front"), .close("inner-front")])
        #expect(switcher.readiness == .ready)
        #expect(switcher.warming == nil)
    }

    @Test func aWarmCameraStillStartingIsNotOpenedTwice() {
        var switcher = streaming("inner-front")
        _ = switcher.prewarm("outer-front")
        #expect(switcher.decide(candidates: ["outer-front"]).isEmpty)
        #expect(switcher.readiness == .switching)
        #expect(switcher.firstFrame(from: "outer-front") == [.feed("outer-front"), .close("inner-front")])
    }

    @Test func aCancelledPrewarmClosesTheCamera() {
        var switcher = streaming("inner-front")
        _ = switcher.prewarm("outer-front")
        #expect(switcher.prewarm(nil) == [.close("outer-front")])
        #expect(switcher.prewarm("inner-front").isEmpty)  // already feeding
    }

    @Test func hardwareThatCannotStreamTwoCamerasFallsBackToTheSlowSwitch() {
        var switcher = streaming("inner-front")
        _ = switcher.prewarm("outer-front")
        #expect(switcher.failed("outer-front", reason: .busy) == [.close("outer-front")])
        #expect(switcher.feeding == "inner-front")
        #expect(switcher.readiness == .ready)
        #expect(switcher.decide(candidates: ["outer-front"]) == [.open("outer-front")])
    }
}
