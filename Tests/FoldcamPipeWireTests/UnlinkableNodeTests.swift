import FoldcamCore
@testable import FoldcamPipeWire
import Testing

/// A decided camera node that is listed but cannot feed (`PipeWireBridge.Input.inputFailed`):
/// "camera unavailable" saying why, the camera left out of the report to foldcamd, and back on
/// a node listed anew or a fresh decision.
@Suite struct UnlinkableNodeTests {
    let outerSerial = CameraNode(id: 41, properties: ["node.name": "libcamera_input.front", "api.libcamera.location": "front", "object.serial": "77"])
    /// A second node of the same camera (another PipeWire plugin lists it too).
    var secondOuter: CameraNode {
        var second = outerSerial
        second.id = 42
        second.properties["object.serial"] = "78"
        return second
    }

    func streamingOnOuter() throws -> PipeWireBridge {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        _ = bridge.handle(.cameraNodes([innerNode, outerSerial]))
        _ = bridge.handle(.daemon(view("outer-front")))
        _ = bridge.handle(.output(virtualCamera: "viewed", streaming: true))
        return bridge
    }

    @Test func aNodeThatCannotFeedShowsCameraUnavailableSayingWhy() throws {
        var bridge = try streamingOnOuter()
        #expect(bridge.feed("viewed") == .node("77"))
        let reason = "PipeWire stopped the stream: defined target not found"
        let unavailable = "camera node libcamera_input.front (object.serial 77) of rig camera \"outer-front\" cannot feed: \(reason)"
        #expect(bridge.handle(.inputFailed(virtualCamera: "viewed", node: "77", reason: reason)) == [
            .showUnavailable(virtualCamera: "viewed", reason: unavailable),
            .retryLater(virtualCamera: "viewed", node: "77", seconds: 5, attempt: 1, newDelay: true),
        ])
        #expect(bridge.failure("77") == reason)
        guard case let .array(sinks) = bridge.sinkReport(published: ["viewed"]) else { Issue.record("no sinks array"); return }
        #expect(sinks.first?["state"]?.stringValue == "unavailable")
        #expect(sinks.first?["reason"]?.stringValue == unavailable)
        // The same decision again (a new capture rotation, the directions topic) does not retry it.
        #expect(bridge.handle(.daemon(view("outer-front", rotation: 90))) == [])
    }

    @Test func theCameraIsLeftOutOfWhatFoldcamdIsToldItSees() throws {
        var bridge = try streamingOnOuter()
        #expect(bridge.seenCameras.map(\.camera) == ["inner-front", "outer-front"])
        _ = bridge.handle(.inputFailed(virtualCamera: "viewed", node: "77", reason: "no frame"))
        // foldcamd, on hardware, then counts a camera only PipeWire has as unplugged and decides on another.
        #expect(bridge.seenCameras.map(\.camera) == ["inner-front"])
        #expect(bridge.cameraReport == .array([.object([("camera", .string("inner-front")), ("node", .string("cam-inner"))])]))
    }

    @Test func aLaterDecisionNamingAGoodNodeFeeds() throws {
        var bridge = try streamingOnOuter()
        _ = bridge.handle(.inputFailed(virtualCamera: "viewed", node: "77", reason: "no frame"))
        #expect(bridge.handle(.daemon(view("inner-front"))) == [.connectInput(virtualCamera: "viewed", node: "cam-inner", transform: .none)])
        #expect(bridge.feed("viewed") == .node("cam-inner"))
    }

    @Test func aFreshDecisionForTheCameraTriesItsNodeAgain() throws {
        var bridge = try streamingOnOuter()
        _ = bridge.handle(.inputFailed(virtualCamera: "viewed", node: "77", reason: "no frame"))
        _ = bridge.handle(.daemon(view("inner-front")))
        // What failed may work now (a camera another program held); if not, it is marked again.
        #expect(bridge.failure("77") == "no frame", "still marked while the decision names another camera")
        #expect(bridge.handle(.daemon(view("outer-front"))) == [.connectInput(virtualCamera: "viewed", node: "77", transform: .none)])
        #expect(bridge.failure("77") == nil)
        #expect(bridge.seenCameras.map(\.camera) == ["inner-front", "outer-front"])
    }

    @Test func aNodeListedAnewIsTriedAgain() throws {
        var bridge = try streamingOnOuter()
        _ = bridge.handle(.inputFailed(virtualCamera: "viewed", node: "77", reason: "no frame"))
        // The node goes; its camera comes back as a new node (a new serial).
        _ = bridge.handle(.cameraNodes([innerNode]))
        #expect(bridge.failure("77") == nil)
        var again = outerSerial
        again.properties["object.serial"] = "90"
        #expect(bridge.handle(.cameraNodes([innerNode, again])) == [.connectInput(virtualCamera: "viewed", node: "90", transform: .none)])
    }

    @Test func anotherNodeOfTheSameCameraFeedsInstead() throws {
        var bridge = try streamingOnOuter()
        _ = bridge.handle(.cameraNodes([innerNode, outerSerial, secondOuter]))
        #expect(bridge.handle(.inputFailed(virtualCamera: "viewed", node: "77", reason: "no frame")) == [
            .connectInput(virtualCamera: "viewed", node: "78", transform: .none),
        ])
        #expect(bridge.seenCameras.map(\.camera) == ["inner-front", "outer-front"], "the camera is still seen, through its other node")
    }

    @Test func aFailureOfANodeNoLongerListedChangesNothing() throws {
        var bridge = try streamingOnOuter()
        _ = bridge.handle(.cameraNodes([innerNode]))
        #expect(bridge.handle(.inputFailed(virtualCamera: "viewed", node: "77", reason: "gone")) == [])
        #expect(bridge.failure("77") == nil)
    }

    @Test func aFoldcamdRestartTriesTheNodeAgain() throws {
        var bridge = try streamingOnOuter()
        _ = bridge.handle(.inputFailed(virtualCamera: "viewed", node: "77", reason: "no frame"))
        _ = bridge.handle(.daemonGone)
        #expect(bridge.handle(.daemon(view("outer-front"))) == [.connectInput(virtualCamera: "viewed", node: "77", transform: .none)])
    }

    /// Fails the node's stream: the retry it schedules.
    func fail(_ bridge: inout PipeWireBridge) -> PipeWireBridge.Action? {
        bridge.handle(.inputFailed(virtualCamera: "viewed", node: "77", reason: "no frame")).first { if case .retryLater = $0 { true } else { false } }
    }

    @Test func whileStillDecidedItIsTriedAgainOnABackoff() throws {
        var bridge = try streamingOnOuter()
        var seen: [Int] = [], announced: [Int] = []
        #expect(!bridge.isRetrying("77"), "its first failure is news (a warning)")
        for attempt in 1...6 {
            guard case let .retryLater(id, node, seconds, scheduled, newDelay)? = fail(&bridge) else { Issue.record("no retry after failure \(attempt)"); return }
            #expect(id == "viewed" && node == "77" && scheduled == attempt)
            seen.append(seconds)
            if newDelay { announced.append(seconds) }
            // The timer goes off: the node is connected again, and is a retry from now on.
            #expect(bridge.handle(.retryDue(node: "77", attempt: attempt)) == [.connectInput(virtualCamera: "viewed", node: "77", transform: .none)])
            #expect(bridge.isRetrying("77"))
            #expect(bridge.feed("viewed") == .node("77"))
        }
        #expect(seen == [5, 10, 30, 60, 60, 60])
        #expect(announced == [5, 10, 30, 60], "each step is logged once")
    }

    /// A camera whose stream was tried again and delivered, then stalled: news again (a
    /// warning), and the backoff starts afresh at 5 s.
    @Test func aRetryThatDeliversEndsTheBackoff() throws {
        var bridge = try streamingOnOuter()
        _ = fail(&bridge)
        _ = bridge.handle(.retryDue(node: "77", attempt: 1))
        _ = fail(&bridge)
        #expect(bridge.handle(.retryDue(node: "77", attempt: 2)) == [.connectInput(virtualCamera: "viewed", node: "77", transform: .none)])
        #expect(bridge.isRetrying("77"))
        #expect(bridge.handle(.inputDelivered(node: "77")) == [])
        #expect(!bridge.isRetrying("77"), "its next failure is news")
        #expect(bridge.feed("viewed") == .node("77"))
        guard case let .retryLater(_, _, seconds, attempt, newDelay)? = fail(&bridge) else { Issue.record("no retry after the stall"); return }
        #expect(seconds == 5 && attempt == 1 && newDelay)
        #expect(bridge.feed("viewed") == .unavailable("camera node libcamera_input.front (object.serial 77) of rig camera \"outer-front\" cannot feed: no frame"))
    }

    /// A first frame heard after the node failed (another virtual camera's stream to it, whose
    /// event was queued behind the failure) leaves the backoff alone: its timer stays live.
    @Test func aFirstFrameAfterTheFailureKeepsTheRetry() throws {
        var bridge = try streamingOnOuter()
        _ = fail(&bridge)
        _ = bridge.handle(.retryDue(node: "77", attempt: 1))
        guard case let .retryLater(_, _, _, attempt, _)? = fail(&bridge) else { Issue.record("no retry"); return }
        #expect(bridge.handle(.inputDelivered(node: "77")) == [])
        #expect(bridge.isRetrying("77"))
        #expect(bridge.handle(.retryDue(node: "77", attempt: attempt)) == [.connectInput(virtualCamera: "viewed", node: "77", transform: .none)])
    }

    @Test func aStaleTimerDoesNothing() throws {
        var bridge = try streamingOnOuter()
        _ = fail(&bridge)
        _ = bridge.handle(.retryDue(node: "77", attempt: 1))
        _ = fail(&bridge)
        // The first timer again (or one from before a fresh decision): not the live one.
        #expect(bridge.handle(.retryDue(node: "77", attempt: 1)) == [])
        #expect(bridge.failure("77") == "no frame")
    }

    @Test func noRetryOnceAnotherCameraIsDecided() throws {
        var bridge = try streamingOnOuter()
        _ = fail(&bridge)
        _ = bridge.handle(.daemon(view("inner-front")))
        #expect(bridge.handle(.retryDue(node: "77", attempt: 1)) == [])
        #expect(bridge.failure("77") == "no frame", "tried again only when a decision names its camera")
        #expect(!bridge.isRetrying("77"))
        // Decided on again: tried at once, and a failure then starts the backoff afresh.
        #expect(bridge.handle(.daemon(view("outer-front"))) == [.connectInput(virtualCamera: "viewed", node: "77", transform: .none)])
        guard case let .retryLater(_, _, seconds, _, _)? = fail(&bridge) else { Issue.record("no retry"); return }
        #expect(seconds == 5)
    }

    @Test func noRetryWhileNobodyReadsOrOnceTheNodeIsGone() throws {
        var bridge = try streamingOnOuter()
        _ = fail(&bridge)
        _ = bridge.handle(.output(virtualCamera: "viewed", streaming: false))
        #expect(bridge.handle(.retryDue(node: "77", attempt: 1)) == [])
        #expect(bridge.failure("77") == "no frame")

        var gone = try streamingOnOuter()
        _ = fail(&gone)
        _ = gone.handle(.cameraNodes([innerNode]))
        #expect(gone.handle(.retryDue(node: "77", attempt: 1)) == [])
    }

    @Test func noRetryWhenAnotherNodeOfTheCameraFeeds() throws {
        var bridge = try streamingOnOuter()
        _ = bridge.handle(.cameraNodes([innerNode, outerSerial, secondOuter]))
        #expect(fail(&bridge) == nil)
    }
}
