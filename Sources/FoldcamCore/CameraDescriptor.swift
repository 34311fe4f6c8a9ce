/// A camera as clients see it: a sendable value standing in for the device (docs/protocol.md,
/// "A camera descriptor"). Devices never cross boundaries; descriptors do.
public struct CameraDescriptor: Sendable, Equatable {
    /// Stable across reboots and replugging (udev ID_PATH / ID_SERIAL; never /dev/videoN).
    public var uniqueID: String
    public var localizedName: String
    public var deviceType: String
    public var mediaTypes: [String]
    /// Hardware mount: "front", "back" or "external".
    public var position: String
    /// The rig camera this device is, when matched.
    public var rigCamera: String?
    /// The device node, when there is one.
    public var node: String?
    public var modes: [CameraMode]
    public var sensorRotation: Int
    /// Why a real device was classified as it was (nil for simulated cameras).
    public var provenance: Provenance?

    /// How the device layer arrived at a real camera's fields: what `foldcamd --probe` and the
    /// `devices` topic show, like `libinput list-devices` does.
    public struct Provenance: Sendable, Equatable {
        /// How the rig camera was matched, e.g. "udev FOLDCAM_CAMERA=inner-front (rule on ID_PATH)";
        /// nil when the device matched no rig camera.
        public var matchedBy: String?
        /// Where `position` came from: "udev FOLDCAM_POSITION", "V4L2_CID_CAMERA_ORIENTATION", ...
        public var positionSource: String
        /// Where `sensorRotation` came from: "udev FOLDCAM_SENSOR_ROTATION", "V4L2_CID_CAMERA_SENSOR_ROTATION", ...
        public var rotationSource: String
        /// Image controls the device has, of "hflip", "vflip", "rotate".
        public var controls: [String]
        /// The V4L2 driver and bus, for people reading the probe.
        public var driver: String
        public var busInfo: String
        /// The sensor sub-device the node's media graph links it to ("/dev/v4l-subdev1 (Sensor
        /// B)"); nil without a media graph or when the graph names no one sensor.
        public var sensor: String?

        public init(matchedBy: String?, positionSource: String, rotationSource: String, controls: [String], driver: String, busInfo: String,
                    sensor: String? = nil) {
            self.sensor = sensor
            self.matchedBy = matchedBy
            self.positionSource = positionSource
            self.rotationSource = rotationSource
            self.controls = controls
            self.driver = driver
            self.busInfo = busInfo
        }

        public var json: JSONValue {
            .object([
                ("matchedBy", matchedBy.map { .string($0) } ?? .null),
                ("positionSource", .string(positionSource)),
                ("rotationSource", .string(rotationSource)),
                ("controls", .array(controls.map { .string($0) })),
                ("driver", .string(driver)),
                ("busInfo", .string(busInfo)),
            ] + (sensor.map { [("sensor", JSONValue.string($0))] } ?? []))
        }
    }

    public init(uniqueID: String, localizedName: String, deviceType: String, mediaTypes: [String], position: String,
                rigCamera: String?, node: String?, modes: [CameraMode], sensorRotation: Int, provenance: Provenance? = nil) {
        self.uniqueID = uniqueID
        self.localizedName = localizedName
        self.deviceType = deviceType
        self.mediaTypes = mediaTypes
        self.position = position
        self.rigCamera = rigCamera
        self.node = node
        self.modes = modes
        self.sensorRotation = sensorRotation
        self.provenance = provenance
    }

    /// Simulated cameras: one per rig camera, described by the rig.
    public static func simulated(_ rig: Rig) -> [CameraDescriptor] {
        rig.cameras.map { camera in
            CameraDescriptor(
                uniqueID: "sim:\(rig.id):\(camera.id)", localizedName: camera.name, deviceType: camera.deviceType,
                mediaTypes: camera.mediaTypes, position: camera.position, rigCamera: camera.id, node: nil,
                modes: camera.modes, sensorRotation: camera.sensorRotation)
        }
    }

    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("uniqueID", .string(uniqueID)),
            ("localizedName", .string(localizedName)),
            ("deviceType", .string(deviceType)),
            ("mediaTypes", .array(mediaTypes.map { .string($0) })),
            ("position", .string(position)),
            ("rigCamera", rigCamera.map { .string($0) } ?? .null),
            ("node", node.map { .string($0) } ?? .null),
            ("sensorRotation", .int(sensorRotation)),
            ("formats", .array(modes.map(StateEncoder.format))),
        ]
        // Only real devices carry it, so simulated descriptors keep their exact shape.
        if let provenance { members.append(("classification", provenance.json)) }
        return .object(members)
    }
}
