import FoldcamCore
import FoldcamV4L2

/// Decides what a video4linux node is, from udev properties and V4L2 answers alone: a pure
/// function, so every rule here is tested from recorded values without devices.
///
/// Precedence (first that says something wins):
/// - rig camera: udev `FOLDCAM_CAMERA` (set by the rig's rules file).
/// - position: udev `FOLDCAM_POSITION` → `V4L2_CID_CAMERA_ORIENTATION` → hwdb `ID_CAMERA_DIRECTION`
///   → `ID_BUS=usb` (external) → the matched rig camera's mount → "external".
/// - sensor rotation (clockwise): udev `FOLDCAM_SENSOR_ROTATION` → `V4L2_CID_CAMERA_SENSOR_ROTATION`
///   (counter-clockwise, converted) → the rig camera's → 0.
/// - device type: udev `FOLDCAM_DEVICE_TYPE` → the rig camera's → "external" for USB → "wide".
public enum CameraClassifier {
    /// How the daemon's own v4l2loopback output is recognised, so it is never its own camera.
    /// One entry per virtual camera (docs/virtual-camera.md, "Several virtual cameras").
    public struct Loopback: Sendable, Equatable {
        public var labels: [String]
        public var nodes: [String]

        public init(label: String, node: String?) {
            self.init(labels: [label], nodes: node.map { [$0] } ?? [])
        }

        public init(labels: [String], nodes: [String]) {
            self.labels = labels.filter { !$0.isEmpty }
            self.nodes = nodes
        }
    }

    public enum Outcome: Sendable, Equatable {
        case camera(CameraDescriptor, warnings: [String])
        /// Not a camera foldcam uses; the reason is for the probe listing and debug logs.
        case skipped(reason: String)
    }

    /// How a skip reason for the daemon's own loopback starts (`--probe` lists them as the sink).
    public static let ownLoopbackReason = "the daemon's own virtual camera"

    public static func classify(_ record: UdevRecord, _ answers: V4L2Answers, rig: Rig, loopback: Loopback) -> Outcome {
        let capability = answers.capability
        if let node = loopback.nodes.first(where: { $0 == record.devnode }) {
            return .skipped(reason: "\(ownLoopbackReason) (loopbackDevice \(node))")
        }
        if let label = loopback.labels.first(where: { $0 == capability.card }) {
            return .skipped(reason: "\(ownLoopbackReason) (card label \"\(label)\")")
        }
        if record.sysname.hasPrefix("v4l-subdev") { return .skipped(reason: subdeviceReason(answers.controls)) }
        if let reason = nodeKindSkipReason(capability.nodeCapabilities) { return .skipped(reason: reason) }
        if let reason = rawOnlySkipReason(answers.formats, onlyEmulated: answers.onlyEmulatedFormats) { return .skipped(reason: reason) }

        var warnings: [String] = []
        let properties = record.properties
        var rigCamera: Camera?
        var matchedBy: String?
        if let id = properties["FOLDCAM_CAMERA"] {
            if let index = rig.cameraIndex(id) {
                rigCamera = rig.cameras[index]
                let rule = properties["FOLDCAM_MATCH"].map { " (rule matched \($0))" } ?? ""
                matchedBy = properties[DeviceModel.matchProperty] ?? "udev FOLDCAM_CAMERA=\(id)\(rule)"
            } else {
                warnings.append("\(record.displayName): FOLDCAM_CAMERA=\(id) names no camera of rig \(rig.id) (cameras: \(rig.cameras.map(\.id).joined(separator: ", "))); treated as an extra camera")
            }
        }
        let usb = properties["ID_BUS"] == "usb"
        let (position, readPositionSource) = self.position(properties, answers.controls, usb: usb, rigCamera: rigCamera, warnings: &warnings, name: record.displayName)
        let (rotation, readRotationSource) = sensorRotation(properties, answers.controls, rigCamera: rigCamera, warnings: &warnings, name: record.displayName)
        // Controls read from the sensor's sub-device rather than this node: say where.
        func located(_ source: String) -> String {
            guard let from = answers.mountingFrom, source.hasPrefix("V4L2_CID") else { return source }
            return "\(source) on \(from)"
        }
        let (positionSource, rotationSource) = (located(readPositionSource), located(readRotationSource))
        let deviceType = properties["FOLDCAM_DEVICE_TYPE"] ?? rigCamera?.deviceType ?? (usb ? "external" : "wide")
        let modes = Self.modes(answers.formats)
        let depth = answers.formats.contains { $0.fourcc.isDepth }
        let video = answers.formats.contains { !$0.fourcc.isDepth } || answers.formats.isEmpty
        let descriptor = CameraDescriptor(
            uniqueID: uniqueID(record), localizedName: capability.card.isEmpty ? (record.attributes["name"] ?? record.sysname) : capability.card,
            deviceType: deviceType, mediaTypes: (video ? ["video"] : []) + (depth ? ["depth"] : []), position: position,
            rigCamera: rigCamera?.id, node: record.devnode, modes: modes, sensorRotation: rotation,
            provenance: CameraDescriptor.Provenance(
                matchedBy: matchedBy, positionSource: positionSource, rotationSource: rotationSource,
                controls: answers.controls.names, driver: capability.driver, busInfo: capability.busInfo, sensor: answers.sensorNode))
        return .camera(descriptor, warnings: warnings)
    }

    /// Why a node that is not a capture node is skipped (nil for capture nodes).
    static func nodeKindSkipReason(_ flags: V4L2CapabilityFlags) -> String? {
        if flags.contains(.memoryToMemory) || flags.contains(.memoryToMemoryMultiplanar) { return "a memory-to-memory (codec) node" }
        if flags.contains(.videoCapture) || flags.contains(.videoCaptureMultiplanar) { return nil }
        if flags.contains(.metadataCapture) { return "a metadata-only node" }
        if flags.contains(.videoOutput) || flags.contains(.videoOutputMultiplanar) { return "an output node" }
        return "not a video capture node (capabilities 0x\(String(flags.rawValue, radix: 16)))"
    }

    /// A sub-device is no camera (it delivers no frames); what its controls say about the
    /// sensor's mounting is reported, for the rig or a model to use.
    static func subdeviceReason(_ controls: V4L2Controls) -> String {
        var said: [String] = []
        if let orientation = controls.orientation {
            said.append("orientation \([0: "front", 1: "back", 2: "external"][orientation] ?? String(orientation)) (V4L2_CID_CAMERA_ORIENTATION)")
        }
        if let rotation = controls.sensorRotationCounterClockwise {
            said.append("sensor rotation \(rotation)° counter-clockwise, \(clockwise(fromCounterClockwise: rotation))° clockwise (V4L2_CID_CAMERA_SENSOR_ROTATION)")
        }
        return "a V4L2 sub-device (no frames; libcamera or a capture node carries them)" + (said.isEmpty ? "" : ": " + said.joined(separator: ", "))
    }

    /// Why a capture node that offers only raw Bayer formats is no camera foldcam can show (an
    /// IPU6/IPU7 ISYS capture node: libcamera or the vendor's HAL runs the ISP); nil otherwise.
    static func rawOnlySkipReason(_ formats: [V4L2Format], onlyEmulated: Bool = false) -> String? {
        if onlyEmulated {
            return "a raw capture node with no usable format (every format it lists is libv4l2's software conversion of a raw one, such as Bayer, which needs an ISP): on an IPU this is an ISYS capture node, and the camera is reached through libcamera (PipeWire) instead"
        }
        guard !formats.isEmpty, formats.allSatisfy({ $0.fourcc.isRawBayer }) else { return nil }
        let names = formats.map(\.fourcc.name).joined(separator: ", ")
        return "a raw capture node with no usable format (only Bayer \(names), which needs an ISP): on an IPU this is an ISYS capture node, and the camera is reached through libcamera (PipeWire) instead"
    }

    /// Stable across reboots and replugging, never the /dev/videoN number: a USB camera with a
    /// serial number by that serial (it may move ports); anything else by its port (ID_PATH)
    /// and the node's sysfs name, because several capture devices can share one port (all vivid
    /// instances hang off one platform device; an ISP exposes several sensors under one PCI
    /// function). The node index tells apart the several nodes of one device.
    public static func uniqueID(_ record: UdevRecord) -> String {
        let properties = record.properties
        let suffix = record.attributes["index"].flatMap { Int($0) }.map { $0 == 0 ? "" : "#\($0)" } ?? ""
        if properties["ID_BUS"] == "usb", properties["ID_SERIAL_SHORT"] != nil, let serial = properties["ID_SERIAL"] {
            return "usb:\(serial)\(suffix)"
        }
        if let path = properties["ID_PATH"] {
            let name = record.attributes["name"].map { "/" + $0 } ?? ""
            return "path:\(path)\(name)\(suffix)"
        }
        if let serial = properties["ID_SERIAL"] { return "serial:\(serial)\(suffix)" }
        return "sys:\(record.syspath)"
    }

    static func position(_ properties: [String: String], _ controls: V4L2Controls, usb: Bool, rigCamera: Camera?,
                         warnings: inout [String], name: String) -> (String, String) {
        if let value = properties["FOLDCAM_POSITION"] {
            if ["front", "back", "external"].contains(value) { return (value, "udev FOLDCAM_POSITION") }
            warnings.append("\(name): FOLDCAM_POSITION=\(value) is not front, back or external; ignored")
        }
        if let orientation = controls.orientation {
            switch orientation {
            case 0: return ("front", "V4L2_CID_CAMERA_ORIENTATION")
            case 1: return ("back", "V4L2_CID_CAMERA_ORIENTATION")
            case 2: return ("external", "V4L2_CID_CAMERA_ORIENTATION")
            default: warnings.append("\(name): V4L2_CID_CAMERA_ORIENTATION is \(orientation), not 0, 1 or 2; ignored")
            }
        }
        if let direction = properties["ID_CAMERA_DIRECTION"], ["front", "back"].contains(direction) {
            return (direction, "hwdb ID_CAMERA_DIRECTION")
        }
        if usb { return ("external", "ID_BUS=usb") }
        if let rigCamera { return (rigCamera.position, "rig camera \(rigCamera.id)") }
        return ("external", "default (nothing said otherwise)")
    }

    static func sensorRotation(_ properties: [String: String], _ controls: V4L2Controls, rigCamera: Camera?,
                               warnings: inout [String], name: String) -> (Int, String) {
        if let text = properties["FOLDCAM_SENSOR_ROTATION"] {
            if let degrees = Int(text), [0, 90, 180, 270].contains(degrees) { return (degrees, "udev FOLDCAM_SENSOR_ROTATION") }
            warnings.append("\(name): FOLDCAM_SENSOR_ROTATION=\(text) is not 0, 90, 180 or 270; ignored")
        }
        if let counterClockwise = controls.sensorRotationCounterClockwise {
            if [0, 90, 180, 270].contains(counterClockwise) {
                return (clockwise(fromCounterClockwise: counterClockwise), "V4L2_CID_CAMERA_SENSOR_ROTATION (\(counterClockwise)° counter-clockwise)")
            }
            warnings.append("\(name): V4L2_CID_CAMERA_SENSOR_ROTATION is \(counterClockwise), not a multiple of 90; ignored")
        }
        if let rigCamera { return (rigCamera.sensorRotation, "rig camera \(rigCamera.id)") }
        return (0, "default")
    }

    /// V4L2 (and libcamera) count sensor rotation counter-clockwise; foldcam clockwise.
    public static func clockwise(fromCounterClockwise degrees: Int) -> Int {
        (360 - ((degrees % 360) + 360) % 360) % 360
    }

    /// One mode per (format, size) with the size's best rate; sizes without a known rate are
    /// listed at 0 fps so they still show up (the virtual camera plan ignores them).
    static func modes(_ formats: [V4L2Format]) -> [CameraMode] {
        formats.flatMap { format in
            format.sizes.map { size in
                CameraMode(pixelFormat: format.fourcc.name, width: size.width, height: size.height, fps: size.maximumFPS ?? 0)
            }
        }
    }
}
