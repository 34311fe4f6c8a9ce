import FoldcamCore
@testable import FoldcamPipeWire
import Testing

/// The duo rig with its inner front camera matched by node name, its outer front camera by
/// libcamera location, its back camera unmatched.
func matchedDuo() throws -> Rig {
    var text = RigPresets.json("duo")!
    text = text.replacingFirst("\"id\": \"inner-front\",", with: "\"id\": \"inner-front\", \"pipewire\": {\"nodeName\": \"cam-inner\"},")
    text = text.replacingFirst("\"id\": \"outer-front\",", with: "\"id\": \"outer-front\", \"pipewire\": {\"libcameraLocation\": \"front\"},")
    return try RigDecoder.decode(json: text)
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        var copy = self
        if let range = copy.firstRange(of: target) { copy.replaceSubrange(range, with: replacement) }
        return copy
    }
}

let mode = CameraMode(pixelFormat: "YUYV", width: 640, height: 480, fps: 30)
let innerNode = CameraNode(id: 40, properties: ["node.name": "cam-inner", "media.class": "Video/Source"])
let outerNode = CameraNode(id: 41, properties: ["node.name": "libcamera_input.front", "api.libcamera.location": "front"])

func view(_ source: String?, rotation: Int = 0) -> DaemonView {
    DaemonView(virtualCameras: [.init(id: "viewed", source: source, reason: source == nil ? "noForwardCamera" : nil, mode: mode, captureRotation: rotation)])
}

@Suite struct PipeWireBridgeTests {
    @Test func noCameraStreamOpensWhileNobodyConsumes() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        #expect(bridge.handle(.cameraNodes([innerNode, outerNode])) == [])
        #expect(bridge.handle(.daemon(view("inner-front"))) == [])
        #expect(bridge.handle(.output(virtualCamera: "viewed", streaming: false)) == [])
        #expect(bridge.feed("viewed") == .idle)
    }

    @Test func aConsumerStartsTheDecidedCameraWithItsTransform() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        _ = bridge.handle(.cameraNodes([innerNode, outerNode]))
        _ = bridge.handle(.daemon(view("inner-front", rotation: 90)))
        #expect(bridge.handle(.output(virtualCamera: "viewed", streaming: true)) == [
            .connectInput(virtualCamera: "viewed", node: "cam-inner", transform: VideoTransform(clockwise: 90)),
        ])
    }

    @Test func aNewDecisionConnectsTheOtherCameraWithoutClosingTheNode() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        _ = bridge.handle(.cameraNodes([innerNode, outerNode]))
        _ = bridge.handle(.daemon(view("inner-front")))
        _ = bridge.handle(.output(virtualCamera: "viewed", streaming: true))
        // Matched by api.libcamera.location; no disconnect first: the old input feeds until the new one delivers.
        #expect(bridge.handle(.daemon(view("outer-front"))) == [.connectInput(virtualCamera: "viewed", node: "libcamera_input.front", transform: .none)])
        #expect(bridge.handle(.daemon(view("outer-front"))) == [])
    }

    @Test func aSwitchCarriesTheNewCamerasTransformToItsFirstFrame() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        _ = bridge.handle(.cameraNodes([innerNode, outerNode]))
        _ = bridge.handle(.daemon(view("inner-front", rotation: 0)))
        _ = bridge.handle(.output(virtualCamera: "viewed", streaming: true))
        // No separate setTransform at the decision: the old camera's frames keep theirs until the
        // new camera delivers, and the new camera's transform comes with its first frame.
        #expect(bridge.handle(.daemon(view("outer-front", rotation: 270))) == [
            .connectInput(virtualCamera: "viewed", node: "libcamera_input.front", transform: VideoTransform(clockwise: 270)),
        ])
        // The same camera turned: only its transform changes.
        #expect(bridge.handle(.daemon(view("outer-front", rotation: 90))) == [.setTransform(virtualCamera: "viewed", VideoTransform(clockwise: 90))])
        #expect(bridge.handle(.daemon(view("outer-front", rotation: 90))) == [])
        // Back after "camera unavailable": the camera comes with its transform again.
        _ = bridge.handle(.daemonGone)
        #expect(bridge.handle(.daemon(view("outer-front", rotation: 90))) == [
            .connectInput(virtualCamera: "viewed", node: "libcamera_input.front", transform: VideoTransform(clockwise: 90)),
        ])
    }

    @Test func aMirroringRigPutsTheFlipInTheTransform() throws {
        let text = RigPresets.json("duo")!
            .replacingFirst("\"id\": \"inner-front\",", with: "\"id\": \"inner-front\", \"pipewire\": {\"nodeName\": \"cam-inner\"},")
            .replacingFirst("\"cameras\":", with: "\"virtualCamera\": {\"mirror\": true}, \"cameras\":")
        let rig = try RigDecoder.decode(json: text)
        #expect(rig.virtualCamera.mirror)
        var bridge = PipeWireBridge(rig: rig)
        _ = bridge.handle(.cameraNodes([innerNode]))
        _ = bridge.handle(.daemon(view("inner-front", rotation: 90)))
        // Turned 90° clockwise, then mirrored: SPA's flip, then 90° counter-clockwise (Flipped90).
        #expect(bridge.handle(.output(virtualCamera: "viewed", streaming: true)) == [
            .connectInput(virtualCamera: "viewed", node: "cam-inner", transform: VideoTransform(rawValue: 5)),
        ])
        #expect(bridge.handle(.daemon(view("inner-front", rotation: 0))) == [.setTransform(virtualCamera: "viewed", VideoTransform(rawValue: 4))])
    }

    @Test func theSinkReportSaysWhatEachNodeDoes() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        _ = bridge.handle(.cameraNodes([innerNode]))
        _ = bridge.handle(.daemon(view("inner-front")))
        func states() -> [String] {
            guard case let .array(sinks) = bridge.sinkReport(published: ["viewed"]) else { return [] }
            return sinks.map { [$0["node"]?.stringValue, $0["state"]?.stringValue, $0["reason"]?.stringValue].compactMap { $0 }.joined(separator: " ") }
        }
        #expect(states() == ["foldcam.viewed idle"])
        _ = bridge.handle(.output(virtualCamera: "viewed", streaming: true))
        #expect(states() == ["foldcam.viewed streaming"])
        _ = bridge.handle(.daemonGone)
        #expect(states() == ["foldcam.viewed unavailable foldcamd is not running"])
        #expect(PipeWireBridge.cut(String(repeating: "é", count: 200)).utf8.count == 256)
    }

    @Test func nodesOfOneNameAreToldApartByTheirSerial() throws {
        // WirePlumber 0.5.8 names every V4L2 node of one device alike (vivid's three cameras).
        var text = RigPresets.json("duo")!
        text = text.replacingFirst("\"id\": \"inner-front\",", with: "\"id\": \"inner-front\", \"pipewire\": {\"v4l2Path\": \"/dev/video0\"},")
        text = text.replacingFirst("\"id\": \"outer-front\",", with: "\"id\": \"outer-front\", \"pipewire\": {\"v4l2Path\": \"/dev/video1\"},")
        var bridge = PipeWireBridge(rig: try RigDecoder.decode(json: text))
        let zero = CameraNode(id: 60, properties: ["node.name": "v4l2_input.platform-vivid.0", "api.v4l2.path": "/dev/video0", "object.serial": "301"])
        let one = CameraNode(id: 61, properties: ["node.name": "v4l2_input.platform-vivid.0", "api.v4l2.path": "/dev/video1", "object.serial": "302"])
        _ = bridge.handle(.cameraNodes([zero, one]))
        _ = bridge.handle(.output(virtualCamera: "viewed", streaming: true))
        #expect(bridge.handle(.daemon(view("inner-front"))) == [.connectInput(virtualCamera: "viewed", node: "301", transform: .none)])
        #expect(bridge.handle(.daemon(view("outer-front"))) == [.connectInput(virtualCamera: "viewed", node: "302", transform: .none)],
                "the other camera of the same name is another node to link to")
        #expect(bridge.seenCameras.map(\.node) == ["v4l2_input.platform-vivid.0", "v4l2_input.platform-vivid.0"], "the report names them as PipeWire does")
    }

    @Test func theCameraReportListsTheRigCamerasWhoseNodeIsThere() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        #expect(bridge.cameraReport == .array([]), "nothing seen before the registry lists a node")
        _ = bridge.handle(.cameraNodes([outerNode]))
        #expect(bridge.cameraReport == .array([.object([("camera", .string("outer-front")), ("node", .string("libcamera_input.front"))])]))
        let foldcamNode = CameraNode(id: 50, properties: ["node.name": "cam-inner", FoldcamNode.virtualCameraKey: "viewed"])
        _ = bridge.handle(.cameraNodes([foldcamNode, outerNode, innerNode]))
        #expect(bridge.seenCameras.map(\.camera) == ["inner-front", "outer-front"], "rig order; foldcam's own node is no camera")
        _ = bridge.handle(.cameraNodes([]))
        #expect(bridge.cameraReport == .array([]), "a node gone is a camera no longer seen")
    }

    @Test func theConsumerLeavingClosesTheCameraStream() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        _ = bridge.handle(.cameraNodes([innerNode]))
        _ = bridge.handle(.daemon(view("inner-front")))
        _ = bridge.handle(.output(virtualCamera: "viewed", streaming: true))
        #expect(bridge.handle(.output(virtualCamera: "viewed", streaming: false)) == [.disconnectInput(virtualCamera: "viewed")])
    }

    @Test func withoutTheDaemonTheNodeShowsCameraUnavailableAndComesBack() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        _ = bridge.handle(.cameraNodes([innerNode]))
        _ = bridge.handle(.daemon(view("inner-front")))
        _ = bridge.handle(.output(virtualCamera: "viewed", streaming: true))
        #expect(bridge.handle(.daemonGone) == [.showUnavailable(virtualCamera: "viewed", reason: "foldcamd is not running")])
        #expect(bridge.handle(.daemon(view("inner-front"))) == [.connectInput(virtualCamera: "viewed", node: "cam-inner", transform: .none)])
    }

    @Test func noSourceAnUnmatchedCameraOrAMissingNodeEachSayWhy() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        _ = bridge.handle(.output(virtualCamera: "viewed", streaming: true))
        #expect(bridge.handle(.daemon(view(nil))) == [.showUnavailable(virtualCamera: "viewed", reason: "no camera available (noForwardCamera)")])
        #expect(bridge.handle(.daemon(view("back"))) == [.showUnavailable(virtualCamera: "viewed", reason: "rig camera \"back\" has no \"pipewire\" match")])
        #expect(bridge.handle(.daemon(view("inner-front"))) == [.showUnavailable(virtualCamera: "viewed", reason: "no PipeWire camera node has node.name=cam-inner (rig camera \"inner-front\")")])
        #expect(bridge.handle(.cameraNodes([innerNode])) == [.connectInput(virtualCamera: "viewed", node: "cam-inner", transform: .none)])
        #expect(bridge.handle(.cameraNodes([])) == [.showUnavailable(virtualCamera: "viewed", reason: "no PipeWire camera node has node.name=cam-inner (rig camera \"inner-front\")")])
    }

    @Test func foldcamsOwnNodesAreNeverASource() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        let own = CameraNode(id: 50, properties: ["node.name": "cam-inner", FoldcamNode.virtualCameraKey: "viewed"])
        _ = bridge.handle(.daemon(view("inner-front")))
        #expect(bridge.handle(.cameraNodes([own])) == [])
        #expect(bridge.handle(.output(virtualCamera: "viewed", streaming: true)).contains { if case .showUnavailable = $0 { true } else { false } })
    }

    @Test func aDaemonRunningAnotherRigIsNotFollowed() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        _ = bridge.handle(.cameraNodes([innerNode]))
        _ = bridge.handle(.daemon(view("inner-front")))
        _ = bridge.handle(.output(virtualCamera: "viewed", streaming: true))
        #expect(bridge.handle(.daemonRefused("foldcamd runs rig \"kiosk\"")) == [.showUnavailable(virtualCamera: "viewed", reason: "foldcamd runs rig \"kiosk\"")])
        #expect(bridge.handle(.daemonGone) == [.showUnavailable(virtualCamera: "viewed", reason: "foldcamd is not running")])
    }

    @Test func anUnknownVirtualCameraIsNamed() throws {
        var bridge = PipeWireBridge(rig: try matchedDuo())
        _ = bridge.handle(.daemon(view("inner-front")))
        #expect(bridge.handle(.output(virtualCamera: "rear", streaming: true)) == [.showUnavailable(virtualCamera: "rear", reason: "foldcamd has no virtual camera \"rear\"")])
    }
}

@Suite struct PipeWireVocabularyTests {
    @Test func clockwiseTurnsBecomeSPACounterClockwiseTransforms() {
        #expect([0, 90, 180, 270, 360, -90].map { VideoTransform(clockwise: $0).rawValue } == [0, 3, 2, 1, 0, 1])
        #expect(VideoTransform(clockwise: 90, mirrored: true).rawValue == 7)
        #expect(VideoTransform(clockwise: 0, mirrored: true).rawValue == 4)
    }

    @Test func mirroringIsTheLoopbacksTurnThenMirror() {
        // The loopback turns clockwise, then mirrors the upright picture; SPA flips first, and
        // a flip reverses the turn after it.
        #expect([0, 90, 180, 270].map { VideoTransform(captureRotation: $0, mirrored: true).rawValue } == [4, 5, 6, 7])
        #expect([0, 90, 180, 270].map { VideoTransform(captureRotation: $0, mirrored: false) } == [0, 90, 180, 270].map { VideoTransform(clockwise: $0) })
        // Checked on the corners, screen coordinates (y down): the loopback's turn-then-mirror
        // moves every corner where SPA's flip-then-counter-clockwise turn does.
        let corners = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
        func clockwise(_ p: (Int, Int)) -> (Int, Int) { (-p.1, p.0) }
        func counterClockwise(_ p: (Int, Int)) -> (Int, Int) { (p.1, -p.0) }
        func repeated(_ f: ((Int, Int)) -> (Int, Int), _ times: Int, _ p: (Int, Int)) -> (Int, Int) { (0..<times).reduce(p) { q, _ in f(q) } }
        for rotation in [0, 90, 180, 270] {
            for mirror in [false, true] {
                let spa = VideoTransform(captureRotation: rotation, mirrored: mirror)
                for corner in corners {
                    let turned = repeated(clockwise, rotation / 90, corner)
                    let loopback = mirror ? (-turned.0, turned.1) : turned
                    let flipped = spa.mirrored ? (-corner.0, corner.1) : corner
                    let viaSPA = repeated(counterClockwise, spa.counterClockwiseQuarters, flipped)
                    #expect([loopback.0, loopback.1] == [viaSPA.0, viaSPA.1], "rotation \(rotation) mirror \(mirror) corner \(corner)")
                }
            }
        }
        #expect(VideoTransform(captureRotation: 90, mirrored: true).description == "flipped, 90° counter-clockwise")
    }

    @Test func aMirroredTurnComposesWithAResidual() {
        let mirrored = VideoTransform(captureRotation: 90, mirrored: true)
        // A libcamera residual of 180° (a sensor mounted upside down): the turns add, then the
        // flip reverses them as a whole: flip, then 270° counter-clockwise.
        #expect(mirrored.after(VideoTransform(clockwise: 180)) == VideoTransform(rawValue: 7))
        // A residual flip (a mirrored sensor) cancels foldcam's mirror: only the turn is left.
        #expect(mirrored.after(VideoTransform(clockwise: 0, mirrored: true)) == VideoTransform(rawValue: 1))
        #expect(mirrored.table == [5, 4, 7, 6, 1, 0, 3, 2])
    }

    @Test func aResidualTransformComesFirstThenFoldcamsTurn() {
        let quarter = VideoTransform(clockwise: 90)
        // Turns add up: 90° clockwise after 90° clockwise is 180°.
        #expect(quarter.after(VideoTransform(clockwise: 90)) == VideoTransform(clockwise: 180))
        #expect(VideoTransform.none.after(VideoTransform(clockwise: 270)) == VideoTransform(clockwise: 270))
        // A flip reverses the turn before it: flip after 90° clockwise = flip, then 90° counter-clockwise.
        let flip = VideoTransform(clockwise: 0, mirrored: true)
        #expect(flip.after(quarter) == VideoTransform(rawValue: 5))
        #expect(quarter.after(flip) == VideoTransform(clockwise: 90, mirrored: true))
        // Flipping twice undoes the flip.
        #expect(flip.after(flip) == .none)
        #expect(quarter.table == [3, 0, 1, 2, 7, 4, 5, 6])
    }

    @Test func theDaemonsTopicsGiveEachVirtualCamerasSourceModeAndRotation() throws {
        let single = try JSONParser.parse(#"{"source": "outer-front", "format": {"pixelFormat": "YUYV", "width": 640, "height": 480, "fps": 30}, "depth": false, "pool": []}"#)
        let directions = try JSONParser.parse(#"{"viewedDisplay": "outer", "displays": {"outer": {"cameras": {"outer-front": {"forward": true, "mirror": false, "previewRotation": 0, "captureRotation": 270}}}}}"#)
        #expect(DaemonView(virtualCamera: single, directions: directions) == DaemonView(virtualCameras: [.init(id: "viewed", source: "outer-front", mode: mode, captureRotation: 270)]))
        let several = try JSONParser.parse(#"{"source": null, "reason": "noForwardCamera", "format": null, "id": "front", "cameras": [{"source": null, "reason": "noForwardCamera", "format": {"pixelFormat": "YUYV", "width": 640, "height": 480, "fps": 29.97}, "id": "front"}, {"source": "back", "format": null, "id": "rear"}]}"#)
        #expect(DaemonView(virtualCamera: several, directions: nil) == DaemonView(virtualCameras: [
            .init(id: "front", source: nil, reason: "noForwardCamera", mode: CameraMode(pixelFormat: "YUYV", width: 640, height: 480, fps: 29.97)),
            .init(id: "rear", source: "back", mode: nil),
        ]))
        #expect(DaemonView(virtualCamera: .object([]), directions: nil) == nil)
    }

    @Test func registryLinesBecomeProperties() {
        let node = CameraNode(id: 7, propertyLines: "node.name=cam\nnode.description=A=B camera\n")
        #expect(node.properties == ["node.name": "cam", "node.description": "A=B camera"])
        #expect(!node.isFoldcam)
    }

    @Test func theNodeIsACameraToEveryConsumer() {
        let properties = Dictionary(uniqueKeysWithValues: FoldcamNode.properties(virtualCamera: "viewed"))
        #expect(properties["media.class"] == "Video/Source")
        #expect(properties["media.role"] == "Camera")
        #expect(properties["node.name"] == "foldcam.viewed")
        #expect(properties["node.description"] == "foldcam camera")
        #expect(FoldcamNode.description(virtualCamera: "rear") == "foldcam camera (rear)")
    }

    @Test func aMatchNeedsEveryKeyItGives() {
        let match = PipeWireMatch(libcameraLocation: "front", v4l2Path: "/dev/video0")
        #expect(match.matches(["api.libcamera.location": "front", "api.v4l2.path": "/dev/video0", "node.name": "x"]))
        #expect(!match.matches(["api.libcamera.location": "front"]))
        #expect(!match.matches(["api.libcamera.location": "back", "api.v4l2.path": "/dev/video0"]))
        #expect(!PipeWireMatch().matches(["node.name": "x"]))
    }

    @Test func anEmptyMatchIsRefusedWithWhatToGive() {
        let bad = RigPresets.json("duo")!.replacingFirst("\"id\": \"back\",", with: "\"id\": \"back\", \"pipewire\": {},")
        do {
            _ = try RigDecoder.decode(json: bad)
            Issue.record("an empty pipewire match was accepted")
        } catch {
            #expect(error.description.contains("cameras[2].pipewire: names no PipeWire node: give \"nodeName\", \"libcameraLocation\" or \"v4l2Path\""))
        }
    }

    @Test func rigCamerasNameTheirPipeWireNode() throws {
        let rig = try matchedDuo()
        #expect(rig.cameras[0].pipewire == PipeWireMatch(nodeName: "cam-inner"))
        #expect(rig.cameras[2].pipewire == nil)
        let bad = RigPresets.json("duo")!.replacingFirst("\"id\": \"back\",", with: "\"id\": \"back\", \"pipewire\": {\"nodename\": \"x\"},")
        #expect(throws: DocumentErrors.self) { try RigDecoder.decode(json: bad) }
        do {
            _ = try RigDecoder.decode(json: bad)
        } catch {
            #expect(error.description.contains("cameras[2].pipewire.nodename"))
            #expect(error.description.contains("nodeName"))
        }
    }
}
