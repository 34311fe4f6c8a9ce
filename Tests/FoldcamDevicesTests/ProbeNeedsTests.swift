import FoldcamCore
@testable import FoldcamDevices
import FoldcamIO
import FoldcamPlatform
import Testing

/// `foldcamd --probe`'s diagnosis (issue 13): what each rig camera, hinge, accelerometer and
/// switch became, and which of them the rig cannot do without.
@Suite struct ProbeNeedsTests {
    func status(_ report: ProbeReport, _ kind: ProbeReport.Need.Kind, _ id: String) -> (ProbeReport.Need.Status, Bool)? {
        report.needs.first { $0.kind == kind && $0.id == id }.map { ($0.status, $0.needed) }
    }

    @Test func aTaggedNodeThatFailsIsThatCameraFailingWithItsCall() throws {
        var report = ProbeReport(rig: try Fixtures.rig("kiosk"))
        let error = DeviceError.failed(SystemCallError("open", .permissionDenied, subject: "/dev/video0"))
        report.cameras = [.init(node: "/dev/video0", syspath: "/sys/x/video0", entry: .failed(error), taggedAs: "front-cam")]
        let need = try #require(report.needs.first { $0.id == "front-cam" })
        #expect(need.status == .failed && need.node == "/dev/video0" && need.property == "FOLDCAM_CAMERA=front-cam" && need.call == "open")
        #expect(need.detail == "/dev/video0: open failed: Permission denied (udev tags /dev/video0 FOLDCAM_CAMERA=front-cam)")
        #expect(report.lacking.map(\.id) == ["front-cam", "rear-cam"])
        #expect(report.text.contains("camera front-cam  failed   /dev/video0: open failed: Permission denied"))
        #expect(!report.text.contains("no video4linux node has FOLDCAM_CAMERA=front-cam"))
    }

    @Test func aCameraOnlyPipeWireHasIsNotLackingWhenThePipeWireSinkRuns() throws {
        var rig = try Fixtures.rig("kiosk")
        rig.cameras[0].pipewire = PipeWireMatch(libcameraLocation: "front")
        var report = ProbeReport(rig: rig)
        report.cameras = [.init(node: "/dev/video4", syspath: "/sys/x/video4", entry: .skipped(reason: CameraClassifier.ownLoopbackReason + " (card label \"foldcam\")"), taggedAs: nil)]
        #expect(report.lacking.map(\.id) == ["front-cam", "rear-cam"], "the loopback sink alone cannot use a PipeWire camera")
        #expect(report.text.contains("Sink:            loopback: foldcamd feeds /dev/video4"), "\(report.text)")
        report.sinks = [.pipewire]
        #expect(report.lacking.map(\.id) == ["rear-cam"])
        let need = try #require(report.needs.first { $0.id == "front-cam" })
        #expect(need.status == .missing && !need.needed && need.detail.contains("the node with api.libcamera.location=front, which foldcam-pipewire looks for"), "\(need.detail)")
        #expect(report.text.contains("Sink:            pipewire: foldcam-pipewire publishes the nodes in each user's session") && report.text.contains("(rig cameras matched to PipeWire nodes: front-cam)"), "\(report.text)")
        guard case let .array(sinks)? = report.json["sinks"] else { throw ProbeTestError.noSinks }
        #expect(sinks.first?["kind"] == .string("pipewire"))
    }

    @Test func aTaggedNodeThatIsNotACaptureNodeFails() throws {
        var report = ProbeReport(rig: try Fixtures.rig("kiosk"))
        report.cameras = [.init(node: "/dev/video1", syspath: "/sys/x/video1", entry: .skipped(reason: "a metadata-only node"), taggedAs: "rear-cam")]
        let need = try #require(report.needs.first { $0.id == "rear-cam" })
        #expect(need.status == .failed)
        #expect(need.detail == "udev tags /dev/video1 FOLDCAM_CAMERA=rear-cam, but it is a metadata-only node: the rule matches the wrong node")
    }

    @Test func aHingeWithAnotherAngleSourceIsNotNeeded() throws {
        // The convertible: a tablet-mode switch on its hinge, no hinge sensor, no accelerometers.
        var report = ProbeReport(rig: try Fixtures.rig("convertible"))
        report.switchDevices = [.init(name: "Intel HID switches", lid: false, tabletMode: true)]
        #expect(status(report, .switch, "tabletMode")! == (.found, false))
        #expect(status(report, .switch, "lid")! == (.missing, false))
        #expect(status(report, .hinge, "lid")! == (.missing, false))
        #expect(report.needs.first { $0.kind == .hinge }?.detail == "no IIO hinge sensor with FOLDCAM_HINGE=lid or IIO name \"hinge\": its angle comes from the tabletMode switch")
        // The declared accelerometers are still needed.
        #expect(report.lacking.map { "\($0.kind.rawValue) \($0.id)" } == ["camera user", "camera world", "accelerometer base", "accelerometer display"])
    }

    @Test func aHingeWithoutAnyAngleSourceIsNeeded() throws {
        var report = ProbeReport(rig: try Fixtures.rig("duo"))
        report.sensors = [.init(syspath: "/sys/bus/iio/devices/iio:device0", name: "hinge", outcome: .hinge(hinge: 0, matchedBy: "IIO name \"hinge\""), reading: nil)]
        #expect(status(report, .hinge, "fold")! == (.failed, true))
        report.sensors[0].reading = .hingeAngle(hinge: 0, degrees: 92.25)
        #expect(status(report, .hinge, "fold")! == (.found, true))
        #expect(report.needs.first { $0.kind == .hinge }?.detail.hasSuffix("reading 92.3°") == true)
        report.sensors = []
        #expect(status(report, .hinge, "fold")! == (.missing, true))
        #expect(report.needs.first { $0.kind == .hinge }?.detail.hasSuffix("its angle stays at the initial 180°") == true)
    }

    @Test func aBusyCameraIsThere() throws {
        var report = ProbeReport(rig: try Fixtures.rig("kiosk"))
        let busy = DeviceError.failed(SystemCallError("VIDIOC_ENUM_FMT", .busy, subject: "/dev/video0"))
        report.cameras = [.init(node: "/dev/video0", syspath: "/sys/x/video0", entry: .busy(rigCamera: 0, busy), taggedAs: "front-cam")]
        #expect(status(report, .camera, "front-cam")! == (.busy, true))
        #expect(report.lacking.map(\.id) == ["rear-cam"])
    }
}

/// `--probe` lists an infrared camera as such, with why the virtual camera leaves it out (issue 27).
@Suite struct ProbePoolExclusionTests {
    @Test func anInfraredRigCameraIsListedAsKeptOutOfThePool() throws {
        var text = try #require(RigPresets.json("duo"))
        text = text.replacing("  \"cameras\": [\n", with: """
              "cameras": [
                {"id": "ir", "face": "right.A", "formats": [{"pixelFormats": ["GREY"], "width": 640, "height": 360, "fps": 30}]},

            """)
        let report = ProbeReport(rig: try RigDecoder.decode(json: text))
        let ir = try #require(report.needs.first { $0.id == "ir" })
        #expect(ir.poolExclusion == "infrared: every format it lists is greyscale (GREY); kept out by default (virtualCamera.excludeKinds)")
        #expect(report.needs.filter { $0.kind == .camera && $0.id != "ir" }.allSatisfy { $0.poolExclusion == nil })
        #expect(report.text.contains("kept out of the virtual camera's pool: infrared: every format it lists is greyscale (GREY)"), "\(report.text)")
        #expect(report.json.prettyText.contains("\"poolExclusion\""))
    }

    @Test func aMatchedInfraredNodeSaysSoBesideItsType() throws {
        var text = try #require(RigPresets.json("duo"))
        text = text.replacing("  \"cameras\": [\n", with: """
              "cameras": [
                {"id": "ir", "face": "right.A", "formats": [{"pixelFormats": ["GREY"], "width": 640, "height": 360, "fps": 30}]},

            """)
        var report = ProbeReport(rig: try RigDecoder.decode(json: text))
        let modes = [CameraMode(pixelFormat: "GREY", width: 640, height: 360, fps: 30)]
        let descriptor = CameraDescriptor(uniqueID: "usb-ir", localizedName: "Integrated IR Camera", deviceType: "builtInWideAngleCamera", mediaTypes: ["video"],
                                          position: "front", rigCamera: "ir", node: "/dev/video2", modes: modes, sensorRotation: 0)
        report.cameras = [.init(node: "/dev/video2", syspath: "/sys/x/video2", entry: .camera(descriptor), taggedAs: "ir")]
        #expect(report.text.contains("; infrared (every format greyscale)"), "\(report.text)")
        #expect(report.text.contains("\n  Pool:          kept out of the virtual camera's pool: infrared: every format it lists is greyscale (GREY)"), "\(report.text)")
    }
}

enum ProbeTestError: Error { case noSinks }

/// What --probe says of a rig camera that foldcam-pipewire feeds from a PipeWire node, and of the
/// sensor a capture node's media graph names.
@Suite struct ProbeCameraTextTests {
    @Test func aPipeWireMatchedCameraSaysWhichNodeAndThatProbeCannotSeeIt() throws {
        var text = RigPresets.json("kiosk")!
        let range = try #require(text.firstRange(of: "\"id\": \"front-cam\","))
        text.replaceSubrange(range, with: "\"id\": \"front-cam\", \"pipewire\": {\"nodeName\": \"libcamera_input.platform_vimc.0_Sensor_B\"},")
        var report = ProbeReport(rig: try RigDecoder.decode(json: text))
        let provenance = CameraDescriptor.Provenance(matchedBy: "udev FOLDCAM_CAMERA=front-cam", positionSource: "rig camera front-cam", rotationSource: "rig camera front-cam",
                                                     controls: [], driver: "vimc", busInfo: "platform:vimc", sensor: "/dev/v4l-subdev0 (Sensor A)")
        let descriptor = CameraDescriptor(uniqueID: "path:platform-vimc.0/RGB/YUV Capture", localizedName: "vimc", deviceType: "wide", mediaTypes: ["video"], position: "front",
                                          rigCamera: "front-cam", node: "/dev/video5", modes: [], sensorRotation: 0, provenance: provenance)
        report.cameras = [.init(node: "/dev/video5", syspath: "/sys/x/video5", entry: .camera(descriptor), taggedAs: "front-cam")]
        #expect(report.text.contains("  Sensor:        /dev/v4l-subdev0 (Sensor A), linked to it in the media graph"))
        #expect(report.text.contains("  PipeWire:      foldcam-pipewire feeds it from the node with node.name=libcamera_input.platform_vimc.0_Sensor_B (in the user's session: --probe cannot see PipeWire"))
        #expect(report.json.compactText.contains("\"sensor\":\"/dev/v4l-subdev0 (Sensor A)\""))
    }
}
