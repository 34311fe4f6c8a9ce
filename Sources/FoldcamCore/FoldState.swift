/// Why a camera cannot be used right now.
public enum UnavailableReason: String, Sendable, Equatable {
    case occluded, unplugged, busy
}

/// Where a hinge's effective angle came from.
public enum HingeInputSource: String, Sendable, Equatable {
    case sensor, accelerometers, lidSwitch, tabletModeSwitch, lastReading, initial
}

/// A (display, camera) decision: how that camera's preview is shown on that display.
public struct PairDecision: Sendable, Equatable {
    /// Angle in degrees between the camera's axis and the display's viewing normal.
    public var theta: Double
    public var forward: Bool
    public var mirror: Bool
    public var previewRotation: Int
}

public struct DisplayState: Sendable, Equatable {
    /// A face is covered (folded shut).
    public var occluded: Bool
    /// Why nobody can view it (covered, or its output off or gone); nil while viewable.
    public var unviewable: UnviewableReason? = nil
    /// What DRM says of its output (`unknown` when not observed).
    public var outputState: OutputState = .unknown
    /// Clockwise degrees its panel's top is turned from the anchor's +y, and who said so.
    public var mountRotation: Int = 0
    public var mountRotationSource: MountRotationSource = .none

    /// Faces a presence input lies on while the display stays viewable through its others
    /// (the X1 Fold's keyboard on the lower half), each with where it lies on the display.
    public var covered: [CoveredPart] = []

    public var viewable: Bool { unviewable == nil }
    /// Camera indices facing this display's viewer, best first.
    public var forward: [Int]
    /// Camera indices facing away, most opposite first.
    public var backward: [Int]
    /// Per camera index; nil for unavailable cameras and on unviewable displays.
    public var pairs: [PairDecision?]
}

/// Part of a display a presence input covers: one of its faces, and that face's rectangle on it.
public struct CoveredPart: Sendable, Equatable {
    public var face: FaceRef
    /// In the panel's own coordinates (mount rotation applied), fractions of width and height.
    public var rect: DisplayRect

    public init(face: FaceRef, rect: DisplayRect) {
        self.face = face
        self.rect = rect
    }
}

public struct CameraState: Sendable, Equatable {
    public var unavailable: UnavailableReason?
    /// Clockwise turn that makes captured frames upright in the world.
    public var captureRotation: Int

    public var available: Bool { unavailable == nil }
}

public struct VirtualCameraState: Sendable, Equatable {
    public enum NoSourceReason: String, Sendable, Equatable {
        case noForwardCamera, displayNotFollowed, emptyPool
    }

    public var source: Int?
    public var noSourceReason: NoSourceReason?
}

/// The complete decision for one moment: one value, compared whole to find what changed.
public struct FoldState: Sendable, Equatable {
    public var timeMilliseconds: Int
    public var hingeAngles: [Double]
    public var hingeSources: [HingeInputSource]
    public var posture: Int
    public var viewedDisplay: Int
    public var pinnedDisplay: Int?
    public var screenRotations: [Int]
    public var gravity: Vector3?
    public var displays: [DisplayState]
    public var cameras: [CameraState]
    public var virtualCamera: VirtualCameraState
    /// Per display, the recommended rotation and power (ScreenAdvisor): an output, never read
    /// back as `screenRotations`, which is what the compositor reports.
    public var screens: [ScreenAdvice]
    /// Sensors set aside because a reading could not be true (`SensorPlausibility`).
    public var suspectSensors: [SensorSuspicion] = []
    /// Per presence input of the rig: present, after the debounce.
    public var present: [Bool] = []
}
