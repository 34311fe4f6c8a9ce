import FoldcamCore

/// What the companion needs of foldcamd's decisions, read from the `virtualCamera` and
/// `directions` topics: per virtual camera, its mode, its source camera and how the source's
/// frames must turn.
public struct DaemonView: Sendable, Equatable {
    public struct VirtualCamera: Sendable, Equatable {
        public var id: String
        /// The daemon's decision; nil while no camera is available.
        public var source: String?
        /// Why there is no source, as the daemon says (`noForwardCamera`, ...).
        public var reason: String?
        public var mode: CameraMode?
        /// Clockwise degrees the source's frames turn (its `captureRotation`).
        public var captureRotation: Int

        public init(id: String, source: String?, reason: String? = nil, mode: CameraMode?, captureRotation: Int = 0) {
            self.id = id
            self.source = source
            self.reason = reason
            self.mode = mode
            self.captureRotation = captureRotation
        }
    }

    public var virtualCameras: [VirtualCamera]

    public init(virtualCameras: [VirtualCamera]) {
        self.virtualCameras = virtualCameras
    }

    /// Reads the topics' latest values. A `virtualCamera` value without `cameras` is the single
    /// default camera (`VirtualCameraSpec.defaultID`); nil when the value is not one.
    public init?(virtualCamera: JSONValue, directions: JSONValue?) {
        let entries: [JSONValue]
        if case let .array(cameras)? = virtualCamera["cameras"] {
            entries = cameras
        } else if virtualCamera["format"] != nil {
            entries = [virtualCamera]
        } else {
            return nil
        }
        let rotations = Self.captureRotations(directions)
        virtualCameras = entries.map { entry in
            let source = entry["source"]?.stringValue
            return VirtualCamera(
                id: entry["id"]?.stringValue ?? VirtualCameraSpec.defaultID, source: source,
                reason: entry["reason"]?.stringValue, mode: Self.mode(entry["format"]),
                captureRotation: source.flatMap { rotations[$0] } ?? 0)
        }
    }

    static func mode(_ value: JSONValue?) -> CameraMode? {
        guard let value, let pixelFormat = value["pixelFormat"]?.stringValue,
              case let .int(width)? = value["width"], case let .int(height)? = value["height"] else { return nil }
        let fps: Double
        switch value["fps"] {
        case let .int(whole)?: fps = Double(whole)
        case let .double(fraction)?: fps = fraction
        default: return nil
        }
        return CameraMode(pixelFormat: pixelFormat, width: width, height: height, fps: fps)
    }

    /// Each camera's `captureRotation`: the same in every display's map that lists it.
    static func captureRotations(_ directions: JSONValue?) -> [String: Int] {
        guard case let .object(displays)? = directions?["displays"] else { return [:] }
        var rotations: [String: Int] = [:]
        for (_, display) in displays {
            guard case let .object(cameras)? = display["cameras"] else { continue }
            for (id, pair) in cameras {
                if case let .int(rotation)? = pair["captureRotation"] { rotations[id] = rotation }
            }
        }
        return rotations
    }
}
