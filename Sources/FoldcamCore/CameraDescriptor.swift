/// A camera as clients see it: a sendable value standing in for the device (the seed's
/// AVCaptureDeviceDescriptor). Devices never cross boundaries; descriptors do.
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

    public init(uniqueID: String, localizedName: String, deviceType: String, mediaTypes: [String], position: String,
                rigCamera: String?, node: String?, modes: [CameraMode], sensorRotation: Int) {
        self.uniqueID = uniqueID
        self.localizedName = localizedName
        self.deviceType = deviceType
        self.mediaTypes = mediaTypes
        self.position = position
        self.rigCamera = rigCamera
        self.node = node
        self.modes = modes
        self.sensorRotation = sensorRotation
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
        .object([
            ("uniqueID", .string(uniqueID)),
            ("localizedName", .string(localizedName)),
            ("deviceType", .string(deviceType)),
            ("mediaTypes", .array(mediaTypes.map { .string($0) })),
            ("position", .string(position)),
            ("rigCamera", rigCamera.map { .string($0) } ?? .null),
            ("node", node.map { .string($0) } ?? .null),
            ("sensorRotation", .int(sensorRotation)),
            ("formats", .array(modes.map(StateEncoder.format))),
        ])
    }
}
