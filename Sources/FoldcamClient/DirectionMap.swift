import FoldcamCore

/// How one camera relates to one display's viewer.
public struct CameraDirection: Sendable, Equatable {
    /// The rig camera id.
    public var camera: String
    /// True when the camera faces the display's viewer.
    public var forward: Bool
    /// Angle in degrees between the camera's axis and the display's normal.
    /// Angle between camera axis and display normal; only in full `state` snapshots.
    public var theta: Double?
    /// Mirror the preview on this display (forward cameras, like a selfie view).
    public var mirror: Bool
    /// Rotate the preview by this many degrees clockwise to look upright on this display.
    public var previewRotation: Int
    /// Rotation to record in captured media's metadata.
    public var captureRotation: Int

    public init(camera: String, forward: Bool, theta: Double?, mirror: Bool, previewRotation: Int, captureRotation: Int) {
        self.camera = camera
        self.forward = forward
        self.theta = theta
        self.mirror = mirror
        self.previewRotation = previewRotation
        self.captureRotation = captureRotation
    }
}

/// Which cameras face one display's viewer, and how to show them: the value a kiosk on that
/// display needs (Apple's direction coordinator, for Linux).
public struct DirectionMap: Sendable, Equatable {
    public var display: String
    /// The display is covered (e.g. folded shut against another panel).
    public var occluded: Bool
    /// Someone can look at it: not covered, and its output not off or gone.
    public var viewable: Bool = true
    /// Why not viewable: `occluded`, `outputOff`, `outputDisconnected`.
    public var unviewableReason: String? = nil
    /// The DRM connector the rig puts it on (`eDP-1`), if it names one.
    public var output: String? = nil
    /// `on`, `off`, `disconnected`, or `unknown` (not observed).
    public var outputState: String = "unknown"
    /// This is the display the daemon considers viewed (pinned, or chosen by posture).
    public var viewed: Bool
    /// The UI rotation the daemon knows for this display (`setScreenRotation`).
    public var screenRotation: Int
    /// Camera ids facing the viewer, best first.
    public var forward: [String]
    /// Camera ids facing away from the viewer.
    public var backward: [String]
    /// Per-camera details, forward cameras first.
    public var cameras: [CameraDirection]

    public init(display: String, occluded: Bool, viewed: Bool, screenRotation: Int, forward: [String], backward: [String], cameras: [CameraDirection]) {
        self.display = display
        self.occluded = occluded
        self.viewed = viewed
        self.screenRotation = screenRotation
        self.forward = forward
        self.backward = backward
        self.cameras = cameras
    }

    /// The details for one camera, if it faces this display either way.
    public subscript(camera id: String) -> CameraDirection? {
        cameras.first { $0.camera == id }
    }

    /// The display on `output` in a `directions` topic value.
    public static func display(onOutput output: String, directions: JSONValue) -> String? {
        guard case let .object(members)? = directions["displays"] else { return nil }
        return members.first { $0.1["output"]?.stringValue == output }?.0
    }

    /// From a `directions` topic value (`{"viewedDisplay", "displays": {...}}`); nil when the
    /// display is not in it.
    public init?(display: String, directions: JSONValue) {
        guard let entry = directions["displays"]?[display] else { return nil }
        self.init(display: display, viewed: directions["viewedDisplay"]?.stringValue == display, entry: entry)
    }

    /// From a `directions {"display": ...}` or `setScreenRotation` reply.
    public init?(display: String, reply: JSONValue) {
        let viewed: Bool
        if case let .bool(flag)? = reply["viewed"] { viewed = flag } else { viewed = false }
        self.init(display: display, viewed: viewed, entry: reply)
    }

    private init?(display: String, viewed: Bool, entry: JSONValue) {
        guard case let .bool(occluded)? = entry["occluded"],
              let forward = Self.strings(entry["forward"]), let backward = Self.strings(entry["backward"]) else { return nil }
        var cameras: [CameraDirection] = []
        if case let .object(members)? = entry["cameras"] {
            for (id, value) in members {
                guard case let .bool(isForward)? = value["forward"], case let .bool(mirror)? = value["mirror"] else { return nil }
                cameras.append(CameraDirection(
                    camera: id, forward: isForward, theta: value["theta"]?.numberValue, mirror: mirror,
                    previewRotation: Int(value["previewRotation"]?.numberValue ?? 0),
                    captureRotation: Int(value["captureRotation"]?.numberValue ?? 0)))
            }
        }
        self.init(display: display, occluded: occluded, viewed: viewed, screenRotation: Int(entry["screenRotation"]?.numberValue ?? 0),
                  forward: forward, backward: backward, cameras: cameras)
        if case let .bool(viewable)? = entry["viewable"] { self.viewable = viewable }
        unviewableReason = entry["reason"]?.stringValue
        output = entry["output"]?.stringValue
        outputState = entry["outputState"]?.stringValue ?? "unknown"
    }

    private static func strings(_ value: JSONValue?) -> [String]? {
        guard case let .array(items)? = value else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }
}
