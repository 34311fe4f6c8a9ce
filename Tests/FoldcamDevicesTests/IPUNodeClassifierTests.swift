import FoldcamCore
@testable import FoldcamDevices
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
