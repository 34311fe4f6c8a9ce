import FoldcamCore
@testable import FoldcamDevices
import FoldcamIO
import FoldcamV4L2
import Testing

/// IPU6/IPU7 machines: raw ISYS capture nodes and sensor sub-devices are classified out, each
/// with the reason (the Galaxy Book5 Pro's nodes, samsung-galaxy-book-linux-fixes issue 2).
@Suite struct IPUNodeClassifierTests {
    static func isys(_ node: String) -> UdevRecord {
        UdevRecord(syspath: "/sys/devices/pci0000:00/0000:00:05.0/video4linux/\(node)", sysname: node, subsystem: "video4linux", devnode: "/dev/\(node)",
                   properties: ["ID_PATH": "pci-0000:00:05.0"], attributes: ["name": "Intel IPU7 ISYS Capture 0"])
    }

    static func formats(_ names: [FourCC]) -> [V4L2Format] {
        names.map { V4L2Format(fourcc: $0, description: "raw", sizes: [V4L2FrameSize(width: 1928, height: 1088, maximumFPS: 30)]) }
    }

    func classify(_ record: UdevRecord, _ answers: V4L2Answers) throws -> CameraClassifier.Outcome {
        CameraClassifier.classify(record, answers, rig: try Fixtures.rig("convertible"), loopback: Fixtures.loopback)
    }

    @Test func aCaptureNodeWithOnlyBayerFormatsIsNoCamera() throws {
        let answers = V4L2Answers(capability: Fixtures.capability(card: "ipu7", driver: "isys"), formats: Self.formats(["BA10", "pgAA"]))
        #expect(try classify(Self.isys("video21"), answers) == .skipped(reason:
            "a raw capture node with no usable format (only Bayer BA10, pgAA, which needs an ISP): on an IPU this is an ISYS capture node, and the camera is reached through libcamera (PipeWire) instead"))
    }

    @Test func aNodeWhoseEveryFormatLibv4l2ConvertsIsNoCamera() throws {
        var answers = V4L2Answers(capability: Fixtures.capability(card: "ipu7", driver: "isys"))
        answers.onlyEmulatedFormats = true
        guard case let .skipped(reason) = try classify(Self.isys("video22"), answers) else { throw Fixtures.Failure("expected it skipped") }
        #expect(reason.hasPrefix("a raw capture node with no usable format (every format it lists is libv4l2's software conversion"))
    }

    @Test func oneUsableFormatKeepsTheNodeACamera() throws {
        let answers = V4L2Answers(capability: Fixtures.capability(card: "ipu7", driver: "isys"), formats: Self.formats(["BA10", "NV12"]))
        guard case .camera = try classify(Self.isys("video21"), answers) else { throw Fixtures.Failure("expected a camera") }
    }

    @Test func aSubdeviceSaysWhatItsControlsSayAndIsNoCamera() throws {
        let record = UdevRecord(syspath: "/sys/devices/pci0000:00/0000:00:15.3/i2c_designware.3/i2c-3/i2c-OVTI02E1:00/video4linux/v4l-subdev4", sysname: "v4l-subdev4",
                                subsystem: "video4linux", devnode: "/dev/v4l-subdev4", properties: [:], attributes: ["name": "ov02e10 3-0010"])
        let empty = V4L2Capability(driver: "", card: "", busInfo: "", nodeCapabilities: [])
        #expect(try classify(record, V4L2Answers(capability: empty, controls: V4L2Controls(orientation: 0, sensorRotationCounterClockwise: 0))) == .skipped(reason:
            "a V4L2 sub-device (no frames; libcamera or a capture node carries them): orientation front (V4L2_CID_CAMERA_ORIENTATION), sensor rotation 0° counter-clockwise, 0° clockwise (V4L2_CID_CAMERA_SENSOR_ROTATION)"))
        #expect(try classify(record, V4L2Answers(capability: empty)) == .skipped(reason: "a V4L2 sub-device (no frames; libcamera or a capture node carries them)"))
        #expect(V4L2Prober.isSubdevice("/dev/v4l-subdev4") && !V4L2Prober.isSubdevice("/dev/video4"))
    }
}

/// A model links a capture node without mounting controls to the sensor sub-device that has
/// them (`devices.cameras[].subdevice`): its orientation and rotation are read there, whichever
/// appears first.
@Suite struct SubdeviceMountingTests {
    let log = Log(threshold: .error)

    static let subdevice = UdevRecord(syspath: "/sys/devices/platform/i2c-1/1-0010/video4linux/v4l-subdev0", sysname: "v4l-subdev0", subsystem: "video4linux",
                                      devnode: "/dev/v4l-subdev0", properties: [:], attributes: ["name": "imx219 1-0010"])
    static let capture = UdevRecord(syspath: "/sys/devices/platform/csi/video4linux/video0", sysname: "video0", subsystem: "video4linux", devnode: "/dev/video0",
                                    properties: ["ID_PATH": "platform-csi", "FOLDCAM_CAMERA": "user", DeviceModel.subdeviceProperty: "imx219*"], attributes: ["name": "unicam-image"])

    func inventory() throws -> CameraInventory {
        CameraInventory(rig: try Fixtures.rig("convertible"), loopback: Fixtures.loopback) { node throws(DeviceError) in
            node == "/dev/v4l-subdev0"
                ? V4L2Answers(capability: V4L2Capability(driver: "", card: "", busInfo: "", nodeCapabilities: []), controls: V4L2Controls(orientation: 1, sensorRotationCounterClockwise: 180))
                : V4L2Answers(capability: Fixtures.capability(card: "unicam", driver: "unicam"), formats: Fixtures.yuyvFormats)
        }
    }

    func check(_ inventory: CameraInventory) throws {
        let camera = try #require(inventory.descriptors.first { $0.rigCamera == "user" })
        #expect(camera.position == "back")
        #expect(camera.sensorRotation == 180)
        #expect(camera.provenance?.positionSource == "V4L2_CID_CAMERA_ORIENTATION on /dev/v4l-subdev0 (imx219 1-0010)")
        #expect(camera.provenance?.rotationSource == "V4L2_CID_CAMERA_SENSOR_ROTATION (180° counter-clockwise) on /dev/v4l-subdev0 (imx219 1-0010)")
    }

    @Test func subdeviceFirst() throws {
        var inventory = try inventory()
        _ = inventory.update(Self.subdevice, log: log)
        _ = inventory.update(Self.capture, log: log)
        try check(inventory)
    }

    @Test func subdeviceLater() throws {
        var inventory = try inventory()
        _ = inventory.update(Self.capture, log: log)
        #expect(inventory.descriptors.first?.provenance?.rotationSource == "rig camera user")
        _ = inventory.update(Self.subdevice, log: log)
        try check(inventory)
    }

    @Test func aNodeWithItsOwnControlsKeepsThem() throws {
        var inventory = CameraInventory(rig: try Fixtures.rig("convertible"), loopback: Fixtures.loopback) { node throws(DeviceError) in
            node == "/dev/v4l-subdev0"
                ? V4L2Answers(capability: V4L2Capability(driver: "", card: "", busInfo: "", nodeCapabilities: []), controls: V4L2Controls(orientation: 1, sensorRotationCounterClockwise: 180))
                : V4L2Answers(capability: Fixtures.capability(), formats: Fixtures.yuyvFormats, controls: V4L2Controls(orientation: 0, sensorRotationCounterClockwise: 0))
        }
        _ = inventory.update(Self.subdevice, log: log)
        _ = inventory.update(Self.capture, log: log)
        #expect(inventory.descriptors.first?.provenance?.rotationSource == "V4L2_CID_CAMERA_SENSOR_ROTATION (0° counter-clockwise)")
    }
}
