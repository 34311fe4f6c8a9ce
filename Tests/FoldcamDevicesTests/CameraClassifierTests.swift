import FoldcamCore
@testable import FoldcamDevices
import Testing

@Suite struct CameraClassifierTests {
    func classify(_ record: UdevRecord, _ answers: V4L2Answers, rig: String = "duo", loopback: CameraClassifier.Loopback = Fixtures.loopback) throws -> CameraClassifier.Outcome {
        CameraClassifier.classify(record, answers, rig: try Fixtures.rig(rig), loopback: loopback)
    }

    func descriptor(_ outcome: CameraClassifier.Outcome) throws -> (CameraDescriptor, [String]) {
        guard case let .camera(descriptor, warnings) = outcome else { throw Fixtures.Failure("expected a camera, got \(outcome)") }
        return (descriptor, warnings)
    }

    @Test func taggedCameraMatchesTheRigCameraAndSaysHow() throws {
        let answers = V4L2Answers(capability: Fixtures.capability(), formats: Fixtures.yuyvFormats,
                                  controls: V4L2Controls(orientation: 0, sensorRotationCounterClockwise: 90, hasHorizontalFlip: true, hasVerticalFlip: true))
        let (camera, warnings) = try descriptor(try classify(Fixtures.platformCamera("inner-front"), answers))
        #expect(warnings.isEmpty)
        #expect(camera.rigCamera == "inner-front")
        #expect(camera.uniqueID == "path:platform-fe801000.csi/unicam-image")
        #expect(camera.localizedName == "imx519")
        #expect(camera.position == "front")
        #expect(camera.sensorRotation == 270)  // 90° counter-clockwise is 270° clockwise
        #expect(camera.deviceType == "ultraWide")  // the rig's, as udev says nothing
        #expect(camera.mediaTypes == ["video", "depth"])
        #expect(camera.modes.map(\.description) == ["YUYV 1920x1080@60", "YUYV 640x480@30", "Z16 640x480@30"])
        #expect(camera.provenance?.matchedBy == "udev FOLDCAM_CAMERA=inner-front (rule matched ID_PATH)")
        #expect(camera.provenance?.positionSource == "V4L2_CID_CAMERA_ORIENTATION")
        #expect(camera.provenance?.rotationSource == "V4L2_CID_CAMERA_SENSOR_ROTATION (90° counter-clockwise)")
        #expect(camera.provenance?.controls == ["hflip", "vflip"])
    }

    @Test func udevPropertiesOverrideWhatTheDriverSays() throws {
        let record = Fixtures.platformCamera("back", extra: ["FOLDCAM_POSITION": "back", "FOLDCAM_SENSOR_ROTATION": "180", "FOLDCAM_DEVICE_TYPE": "telephoto"])
        let answers = V4L2Answers(capability: Fixtures.capability(), controls: V4L2Controls(orientation: 0, sensorRotationCounterClockwise: 90))
        let (camera, _) = try descriptor(try classify(record, answers))
        #expect(camera.position == "back")
        #expect(camera.sensorRotation == 180)
        #expect(camera.deviceType == "telephoto")
        #expect(camera.provenance?.positionSource == "udev FOLDCAM_POSITION")
        #expect(camera.provenance?.rotationSource == "udev FOLDCAM_SENSOR_ROTATION")
    }

    @Test func positionFallsBackThroughHwdbThenUSBThenRig() throws {
        let hwdb = Fixtures.platformCamera(nil, extra: ["ID_CAMERA_DIRECTION": "back"])
        #expect(try descriptor(try classify(hwdb, V4L2Answers(capability: Fixtures.capability()))).0.provenance?.positionSource == "hwdb ID_CAMERA_DIRECTION")
        let (usb, _) = try descriptor(try classify(Fixtures.usbWebcam, V4L2Answers(capability: Fixtures.capability(card: "HD Pro Webcam C920", driver: "uvcvideo"))))
        #expect(usb.position == "external")
        #expect(usb.deviceType == "external")
        #expect(usb.rigCamera == nil)
        #expect(usb.uniqueID == "usb:Logitech_C920_A1B2C3D4")
        #expect(usb.provenance?.matchedBy == nil)
        let (rigDeclared, _) = try descriptor(try classify(Fixtures.platformCamera("back"), V4L2Answers(capability: Fixtures.capability())))
        #expect(rigDeclared.position == "back")
        #expect(rigDeclared.provenance?.positionSource == "rig camera back")
        #expect(rigDeclared.provenance?.rotationSource == "rig camera back")
    }

    @Test func nonCaptureNodesAndTheOwnLoopbackAreSkippedWithAReason() throws {
        let record = Fixtures.platformCamera(nil)
        let cases: [(V4L2CapabilityFlags, String)] = [
            ([.metadataCapture], "a metadata-only node"),
            ([.videoOutput], "an output node"),
            ([.memoryToMemory, .videoCapture], "a memory-to-memory (codec) node"),
        ]
        for (flags, reason) in cases {
            #expect(try classify(record, V4L2Answers(capability: Fixtures.capability(flags: flags))) == .skipped(reason: reason))
        }
        let loop = V4L2Answers(capability: Fixtures.capability(card: "foldcam", driver: "v4l2 loopback", flags: [.videoCapture, .videoOutput]))
        #expect(try classify(record, loop) == .skipped(reason: "the daemon's own virtual camera (card label \"foldcam\")"))
        let byNode = CameraClassifier.Loopback(label: "", node: "/dev/video0")
        #expect(try classify(record, V4L2Answers(capability: Fixtures.capability()), loopback: byNode) == .skipped(reason: "the daemon's own virtual camera (loopbackDevice /dev/video0)"))
    }

    @Test func unknownRigCameraAndBadValuesAreWarnedAboutNotFatal() throws {
        let record = Fixtures.platformCamera("selfie", extra: ["FOLDCAM_SENSOR_ROTATION": "45", "FOLDCAM_POSITION": "sideways"])
        let answers = V4L2Answers(capability: Fixtures.capability(), controls: V4L2Controls(orientation: 7, sensorRotationCounterClockwise: 33))
        let (camera, warnings) = try descriptor(try classify(record, answers))
        #expect(camera.rigCamera == nil)
        #expect(camera.sensorRotation == 0)
        #expect(warnings.count == 5)
        #expect(warnings[0].contains("FOLDCAM_CAMERA=selfie names no camera of rig duo"))
    }

    @Test func uniqueIDNeverUsesTheNodeNumber() {
        var record = Fixtures.platformCamera(nil, node: "/dev/video7")
        #expect(CameraClassifier.uniqueID(record) == "path:platform-fe801000.csi/unicam-image")
        record.attributes["index"] = "1"
        #expect(CameraClassifier.uniqueID(record) == "path:platform-fe801000.csi/unicam-image#1")
        record.properties = [:]
        #expect(CameraClassifier.uniqueID(record) == "sys:\(record.syspath)")
    }

    @Test func nodesSharingAPortGetDistinctIDs() {
        var first = Fixtures.platformCamera(nil, node: "/dev/video0")
        first.properties["ID_PATH"] = "platform-vivid.0"
        first.attributes["name"] = "vivid-000-vid-cap"
        var second = first
        second.attributes["name"] = "vivid-001-vid-cap"
        #expect(CameraClassifier.uniqueID(first) == "path:platform-vivid.0/vivid-000-vid-cap")
        #expect(CameraClassifier.uniqueID(second) == "path:platform-vivid.0/vivid-001-vid-cap")
    }

    @Test func rotationConversion() {
        #expect([0, 90, 180, 270].map(CameraClassifier.clockwise(fromCounterClockwise:)) == [0, 270, 180, 90])
    }

    @Test func descriptorJSONCarriesTheClassificationOnlyForRealDevices() throws {
        let (camera, _) = try descriptor(try classify(Fixtures.platformCamera("inner-front"), V4L2Answers(capability: Fixtures.capability())))
        #expect(camera.json["classification"]?["matchedBy"]?.stringValue == "udev FOLDCAM_CAMERA=inner-front (rule matched ID_PATH)")
        #expect(CameraDescriptor.simulated(try Fixtures.rig("duo"))[0].json["classification"] == nil)
    }
}
