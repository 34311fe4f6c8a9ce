/// A rig: a tree of rigid panels joined by hinges, with displays and cameras on panel faces.
/// Everything is addressed by index internally; ids are for people and the wire.
/// Built only by `RigDecoder`, which guarantees the invariants documented on each field.
public struct Rig: Sendable {
    public var id: String
    public var name: String
    /// Topologically ordered: every parent comes before its children; index 0 is the root.
    public var panels: [Panel]
    /// One per non-root panel, in panel order.
    public var hinges: [Hinge]
    public var displays: [Display]
    public var cameras: [Camera]
    public var accelerometers: [Accelerometer]
    public var postures: [Posture]
    public var switches: SwitchMappings
    public var tunables: Tunables
    public var virtualCamera: VirtualCameraConfig
    /// Devices whose appearing and going is an input (`PresenceInput`).
    public var presence: [PresenceInput] = []

    public func panelIndex(_ id: String) -> Int? { panels.firstIndex { $0.id == id } }
    public func hingeIndex(_ id: String) -> Int? { hinges.firstIndex { $0.id == id } }
    public func displayIndex(_ id: String) -> Int? { displays.firstIndex { $0.id == id } }
    /// The display naming this DRM connector (`eDP-1`).
    public func displayIndex(output connector: String) -> Int? { displays.firstIndex { $0.output?.connector == connector } }
    public func cameraIndex(_ id: String) -> Int? { cameras.firstIndex { $0.id == id } }
    public func accelerometerIndex(_ id: String) -> Int? { accelerometers.firstIndex { $0.id == id } }
    public func postureIndex(_ id: String) -> Int? { postures.firstIndex { $0.id == id } }
    /// A face as the rig format writes it: `bottom.A`.
    public func faceName(_ face: FaceRef) -> String { RigDecoder.faceName(face, panels) }
}

public enum FaceSide: String, Sendable, CaseIterable {
    case a = "A"
    case b = "B"

    /// The outward normal of this face in its panel's frame.
    public var normal: Vector3 { self == .a ? .unitZ : -.unitZ }
}

/// One face of one panel, e.g. `right.A`.
public struct FaceRef: Hashable, Sendable {
    public var panel: Int
    public var side: FaceSide

    public init(panel: Int, side: FaceSide) {
        self.panel = panel
        self.side = side
    }
}

/// Which edge of its parent a child panel is attached at. Only drawings and where a covered face
/// lies on its display (`DisplayRegions`) use it: directions depend on orientations alone.
public enum PanelEdge: String, Sendable, CaseIterable {
    case left, right, top, bottom
}

public struct Panel: Sendable {
    public var id: String
    /// Index of the parent panel; nil for the root.
    public var parent: Int?
    /// Index into `Rig.hinges` of the hinge joining this panel to its parent.
    public var hinge: Int?
    /// Width and height in millimetres, for drawings and `DisplayRegions`.
    public var width: Double
    public var height: Double
}

public struct Hinge: Sendable {
    public var id: String
    /// The child panel this hinge moves.
    public var child: Int
    /// The parent panel it is mounted on.
    public var parent: Int
    /// Unit axis in the parent frame; the child is turned by 180° − angle about it.
    public var axis: Vector3
    public var minimum: Double
    public var maximum: Double
    /// The angle assumed until any reading exists.
    public var initial: Double
    public var edge: PanelEdge

    public func contains(_ angle: Double) -> Bool { angle >= minimum && angle <= maximum }
}

public struct Display: Sendable {
    public var id: String
    public var faces: [FaceRef]
    /// The panel whose +y is the content's up before screen rotation.
    public var anchor: Int
    /// The face of the anchor panel the display sits on.
    public var anchorSide: FaceSide
    /// The output a compositor shows it as; nil when the rig does not say.
    public var output: DisplayOutput? = nil
}

/// One capture mode: a pixel format at a size and maximum frame rate.
public struct CameraMode: Hashable, Sendable, CustomStringConvertible {
    public var pixelFormat: String
    public var width: Int
    public var height: Int
    public var fps: Double

    public init(pixelFormat: String, width: Int, height: Int, fps: Double) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.fps = fps
    }

    public var description: String { "\(pixelFormat) \(width)x\(height)@\(fpsText)" }

    var fpsText: String { fps == fps.rounded() ? String(Int(fps)) : String(fps) }
}

public struct Camera: Sendable {
    public var id: String
    public var name: String
    public var face: FaceRef
    public var deviceType: String
    public var mediaTypes: [String]
    /// Clockwise degrees the raw frame must turn to put the panel's +y at the top.
    public var sensorRotation: Int
    public var modes: [CameraMode]
    /// Hardware mount as people name it: "front" when a display shares its face, else "back".
    public var position: String
    /// The PipeWire camera node that is this camera, for the PipeWire companion.
    public var pipewire: PipeWireMatch? = nil

    public var hasDepth: Bool { mediaTypes.contains("depth") }

    /// An infrared camera (face login, say): every format it declares is greyscale. It can never
    /// share a format with a colour camera, so the virtual camera's pool leaves it out by
    /// default (`VirtualCameraConfig.excludeKinds`; it keeps its directions, for apps that open
    /// it themselves).
    public var isInfrared: Bool { CameraKind.isInfrared(modes.map(\.pixelFormat)) }

    /// What the camera is, as `virtualCamera.excludeKinds` names it.
    public var kinds: [CameraKind] {
        (isInfrared ? [.infrared] : []) + (hasDepth ? [.depth] : [])
    }
}

/// What a camera is, beyond colour video: a kind the virtual camera's pool can leave out.
public enum CameraKind: String, Sendable, CaseIterable {
    /// Every format greyscale (`GREY`, `Y8`, `Y16`, ...): an IR face-login sensor.
    case infrared
    /// `mediaTypes` includes depth.
    case depth

    /// V4L2's greyscale FourCCs (trailing spaces dropped): what IR sensors deliver.
    static let greyscaleFormats: Set<String> = ["GREY", "Y4", "Y6", "Y8", "Y10", "Y12", "Y14", "Y16", "Y8I", "Y10B", "Y12I", "Y16I"]

    /// Whether every one of these FourCCs ("Y16 ", "GREY", "Y16 -BE") is greyscale, and there is one.
    public static func isInfrared(_ pixelFormats: [String]) -> Bool {
        !pixelFormats.isEmpty && pixelFormats.allSatisfy { greyscaleFormats.contains(String($0.prefix { $0 != " " })) }
    }

    /// Why a camera of this kind is what it is, for people.
    public func evidence(_ camera: Camera) -> String {
        switch self {
        case .infrared:
            var seen: [String] = []
            for format in camera.modes.map(\.pixelFormat) where !seen.contains(format) { seen.append(format) }
            return "infrared: every format it lists is greyscale (\(seen.joined(separator: ", ")))"
        case .depth: return "depth: its mediaTypes include depth"
        }
    }
}

public struct Accelerometer: Sendable {
    /// Matches udev's `ACCEL_LOCATION` (`base`, `display`).
    public var id: String
    public var panel: Int
}

public struct Posture: Sendable {
    public struct Range: Sendable, Equatable {
        public var hinge: Int
        public var lower: Double
        /// Exclusive, unless it equals the hinge's maximum.
        public var upper: Double
    }

    public var id: String
    /// Hinges not listed accept any angle.
    public var ranges: [Range]
    public var display: Int
}

public struct SwitchMapping: Sendable, Equatable {
    /// How far a switch is believed (docs/model.md, "Inputs and how they are combined").
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// While on, the hinge is at `angle`, whatever else says.
        case override
        /// One vote: it never outvotes a measured angle, picks between a hinge sensor and
        /// accelerometers that disagree, and stands in when nothing is measured (the Spectre
        /// x360's tablet switch fires on a 45° tilt).
        case hint
    }

    public var hinge: Int
    public var angle: Double
    public var mode: Mode = .override
}

public struct SwitchMappings: Sendable {
    /// `SW_LID` closed moves this hinge to this angle.
    public var lid: SwitchMapping?
    /// `SW_TABLET_MODE` on moves this hinge to this angle.
    public var tabletMode: SwitchMapping?

    /// No switch moves a hinge: nothing reads switches (libinput, with its glib stack, is not
    /// even loaded).
    public var isEmpty: Bool { lid == nil && tabletMode == nil }
}

public struct Tunables: Sendable, Equatable {
    /// A hinge below this angle covers both A faces (above 360 minus it, both B faces).
    public var occludedBelow: Double = 15
    /// A camera keeps its side until θ is this far past 90°.
    public var directionHysteresis: Double = 10
    /// Leaving a posture needs the angle this far past the boundary.
    public var postureMargin: Double = 5
    /// Below this fraction of gravity across the hinge axis, accelerometers give no angle.
    public var accelerometerMinimumProjection: Double = 0.3
    /// Below this fraction of a target vector in the image plane, a rotation keeps its last value.
    public var rotationMinimumProjection: Double = 0.3
    /// When a sensor reading cannot be true (`SensorPlausibility`).
    public var plausibility = PlausibilityLimits()
}

public struct VirtualCameraConfig: Sendable {
    /// Displays whose forward cameras may feed the virtual camera (default: all).
    public var follow: [Int]
    /// Device types to prefer when choosing the source, best first.
    public var preferDeviceTypes: [String]
    /// Mirror captured frames (off by default: captures are not mirrored).
    public var mirror: Bool
    /// Cameras (indices) never in the pool, by the rig's word (`virtualCamera.exclude`).
    public var exclude: [Int] = []
    /// Kinds of camera never in the pool (`virtualCamera.excludeKinds`; infrared by default).
    public var excludeKinds: [CameraKind] = VirtualCameraConfig.defaultExcludeKinds

    public static let defaultExcludeKinds: [CameraKind] = [.infrared]
}
