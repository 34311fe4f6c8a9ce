import FoldcamCore
import Foundation
import Testing

/// previewRotation and captureRotation (docs/model.md, "Rotation").
@Suite struct RotationTests {
    /// A one-panel rig with one display and one camera mounted with `sensorRotation`.
    func singlePanelRig(sensorRotation: Int) throws -> Rig {
        try RigDecoder.decode(json: """
            {"id": "slab", "panels": [{"id": "body"}],
             "displays": [{"id": "screen", "faces": ["body.A"]}],
             "cameras": [{"id": "cam", "face": "body.A", "sensorRotation": \(sensorRotation),
                          "formats": [{"pixelFormats": ["YUYV"], "width": 640, "height": 480, "fps": 30}]}],
             "postures": [{"id": "fixed", "ranges": {}, "display": "screen"}]}
            """)
    }

    @Test(arguments: [0, 90, 180, 270])
    func sensorMountIsUndoneByPreviewRotation(sensorRotation: Int) throws {
        let slab = Harness(rig: try singlePanelRig(sensorRotation: sensorRotation))
        #expect(slab.pair("screen", "cam")?.previewRotation == sensorRotation)
        // No gravity yet: capture starts at the viewed display's preview rotation.
        #expect(slab.camera("cam").captureRotation == sensorRotation)
    }

    @Test func sensorMountedAt90WithScreenRotated90() throws {
        var slab = Harness(rig: try singlePanelRig(sensorRotation: 90))
        slab.apply(.screenRotation(display: 0, degrees: 90))
        // Content up turned clockwise by 90: the raw frame needs 90 + 90.
        #expect(slab.pair("screen", "cam")?.previewRotation == 180)
    }

    /// The issue's example gravity is a convertible in tent mode: the hinge on top, the lid's top
    /// edge on the table, so the screen content is upside down in the world.
    static let tentGravity = Vector3(0, -0.866, -0.5)

    @Test func convertibleInTentModeWithoutScreenRotation() throws {
        var convertible = try Harness("convertible")
        convertible.hinge("lid", 300)
        convertible.apply(.gravity(Self.tentGravity))
        #expect(convertible.posture == "tent")
        #expect(convertible.pair("main", "user")?.previewRotation == 0)
        #expect(convertible.camera("user").captureRotation == 180)
    }

    @Test func convertibleInTentModeWithScreenRotated180() throws {
        var convertible = try Harness("convertible")
        convertible.hinge("lid", 300)
        convertible.apply(.gravity(Self.tentGravity))
        convertible.apply(.screenRotation(display: 0, degrees: 180))
        #expect(convertible.pair("main", "user")?.previewRotation == 180)
        // Capture follows the world, not the screen: unchanged.
        #expect(convertible.camera("user").captureRotation == 180)
    }

    @Test func convertibleInLaptopModeIsUpright() throws {
        var convertible = try Harness("convertible")
        convertible.hinge("lid", 110)
        convertible.apply(.gravity(Vector3(0, 0, -9.8)))
        #expect(convertible.camera("user").captureRotation == 0)
        #expect(convertible.camera("world").captureRotation == 0)
    }

    @Test func cameraLookingAlongGravityKeepsItsLastRotation() throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 180)
        // Held sideways: world up is the rig's -x, so the inner camera turns its frame 270°.
        duo.apply(.gravity(Vector3(1, 0, 0)))
        #expect(duo.camera("inner-front").captureRotation == 270)
        // Laid flat, face up: world up is along the inner camera's axis; keep 270.
        duo.apply(.gravity(Vector3(0, 0, -1)))
        #expect(duo.camera("inner-front").captureRotation == 270)
        // The back camera looks straight down: also along the axis, also kept.
        #expect(duo.camera("back").captureRotation == 90)
    }

    @Test func rotationsAreAlwaysQuarterTurns() throws {
        var generator = SeededGenerator(seed: 7)
        var convertible = try Harness("convertible")
        for _ in 0..<500 {
            convertible.hinge("lid", Double.random(in: 0...360, using: &generator))
            let g = Vector3(Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator))
            convertible.apply(.gravity(g))
            convertible.apply(.screenRotation(display: 0, degrees: 90 * Int.random(in: 0...3, using: &generator)))
            for camera in convertible.state.cameras { #expect(camera.captureRotation % 90 == 0 && (0..<360).contains(camera.captureRotation)) }
            for pair in convertible.state.displays[0].pairs.compactMap({ $0 }) {
                #expect(pair.previewRotation % 90 == 0 && (0..<360).contains(pair.previewRotation))
            }
        }
    }
}

@Suite struct CaptureRotationMemoryTests {
    @Test func withoutGravityCaptureKeepsItsFirstValueWhenTheViewChanges() throws {
        var text = try #require(RigPresets.json("kiosk"))
        text = text.replacingOccurrences(of: #""face": "body.B", "deviceType": "wide""#, with: #""face": "body.B", "deviceType": "wide", "sensorRotation": 90"#)
        var kiosk = Harness(rig: try RigDecoder.decode(json: text))
        let first = kiosk.camera("rear-cam").captureRotation
        #expect(first == kiosk.pair("front", "rear-cam")?.previewRotation)
        kiosk.apply(.pinView(display: kiosk.rig.displayIndex("rear")))
        kiosk.apply(.screenRotation(display: kiosk.rig.displayIndex("rear")!, degrees: 180))
        #expect(kiosk.camera("rear-cam").captureRotation == first)
    }
}

@Suite struct VirtualCameraPoolTests {
    @Test func poolHoldsOnlyCamerasThatCanFaceAFollowedViewer() throws {
        var text = try #require(RigPresets.json("duo"))
        text = text.replacingOccurrences(of: "\"tunables\"", with: "\"virtualCamera\": {\"follow\": [\"inner\"]},\n  \"tunables\"")
        let rig = try RigDecoder.decode(json: text)
        let plan = VirtualCameraPlan(rig: rig)
        #expect(plan.pool.map { rig.cameras[$0].id } == ["inner-front"])
        #expect(plan.format == CameraMode(pixelFormat: "NV12", width: 1920, height: 1080, fps: 60))
    }

    @Test func anInfraredCameraStaysOutOfThePoolButKeepsItsDirections() throws {
        // A face-login IR camera beside the inner front camera: greyscale formats only.
        var text = try #require(RigPresets.json("duo"))
        text = text.replacingOccurrences(of: "  \"cameras\": [\n", with: """
              "cameras": [
                {"id": "ir", "name": "IR camera", "face": "right.A", "formats": [
                  {"pixelFormats": ["GREY"], "width": 640, "height": 360, "fps": 30},
                  {"pixelFormats": ["Y16 "], "width": 340, "height": 340, "fps": 15}]},

            """)
        let rig = try RigDecoder.decode(json: text)
        let ir = try #require(rig.cameras.firstIndex { $0.id == "ir" })
        #expect(rig.cameras[ir].isInfrared)
        #expect(!rig.cameras.contains { $0.id != "ir" && $0.isInfrared })
        let plan = VirtualCameraPlan(rig: rig)
        #expect(plan.pool.map { rig.cameras[$0].id } == ["inner-front", "outer-front", "back"])
        #expect(plan.format == CameraMode(pixelFormat: "NV12", width: 1920, height: 1080, fps: 60))
        // It still faces the inner display's viewer, for apps that open it themselves.
        let engine = FoldEngine(rig: rig)
        let inner = try #require(rig.displayIndex("inner"))
        #expect(engine.state.displays[inner].forward.contains(ir))
        #expect(!plan.candidates(rig: rig, state: engine.state.displays, viewedDisplay: inner).contains(ir))
    }

    @Test func duoPoolFollowsBothDisplays() throws {
        let rig = try preset("duo")
        #expect(VirtualCameraPlan(rig: rig).pool.map { rig.cameras[$0].id } == ["inner-front", "outer-front", "back"])
    }
}
