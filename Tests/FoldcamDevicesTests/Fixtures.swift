import FoldcamCore
@testable import FoldcamDevices
import FoldcamPlatform
import FoldcamV4L2

/// Recorded values (trimmed `udevadm info` properties, V4L2 answers as v4l2-ctl shows them).
enum Fixtures {
    static func rig(_ id: String) throws -> Rig {
        guard let rig = try RigPresets.rig(id) else { throw Failure("no preset \(id)") }
        return rig
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static let loopback = CameraClassifier.Loopback(label: "foldcam", node: nil)

    /// A MIPI sensor on a platform bus, tagged by the rig's rules file.
    static func platformCamera(_ rigCamera: String?, extra: [String: String] = [:], node: String = "/dev/video0") -> UdevRecord {
        var properties = ["ID_PATH": "platform-fe801000.csi", "SUBSYSTEM": "video4linux", "DEVNAME": node, "TAGS": ":foldcam:uaccess:"]
        if let rigCamera { properties["FOLDCAM_CAMERA"] = rigCamera; properties["FOLDCAM_MATCH"] = "ID_PATH" }
        properties.merge(extra) { $1 }
        return UdevRecord(syspath: "/sys/devices/platform/fe801000.csi/video4linux/\(node.split(separator: "/").last!)", sysname: String(node.split(separator: "/").last!),
                          subsystem: "video4linux", devnode: node, properties: properties, attributes: ["name": "unicam-image", "index": "0"])
    }

    /// A UVC webcam: ID_BUS=usb, with a serial number.
    static let usbWebcam = UdevRecord(
        syspath: "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/video4linux/video4", sysname: "video4", subsystem: "video4linux",
        devnode: "/dev/video4",
        properties: ["ID_BUS": "usb", "ID_PATH": "pci-0000:00:14.0-usb-0:4:1.0", "ID_SERIAL": "Logitech_C920_A1B2C3D4", "ID_SERIAL_SHORT": "A1B2C3D4", "ID_V4L_CAPABILITIES": ":capture:"],
        attributes: ["name": "HD Pro Webcam C920", "index": "0"])

    static func capability(card: String = "imx519", driver: String = "unicam", flags: V4L2CapabilityFlags = [.videoCapture]) -> V4L2Capability {
        V4L2Capability(driver: driver, card: card, busInfo: "platform:fe801000.csi", nodeCapabilities: flags)
    }

    static let yuyvFormats = [
        V4L2Format(fourcc: "YUYV", description: "YUYV 4:2:2", sizes: [
            V4L2FrameSize(width: 1920, height: 1080, maximumFPS: 60), V4L2FrameSize(width: 640, height: 480, maximumFPS: 30),
        ]),
        V4L2Format(fourcc: "Z16 ", description: "16-bit Depth", sizes: [V4L2FrameSize(width: 640, height: 480, maximumFPS: 30)]),
    ]
}
