/// One known machine from the model database (docs/devices.md): how to recognise it by DMI,
/// the rig it is, which of its devices are which rig part, and what is known about them.
/// Plain data, decoded by `DeviceModelDecoder`; choosing among models is `ModelMatcher`'s job.
public struct DeviceModel: Sendable, Equatable {
    /// The file name without `.json`: how messages and `--probe` name the model.
    public var id: String
    public var name: String
    /// Public citations for every fact in the file (the project's rule: facts cite sources).
    public var sources: [String]
    /// Globs over DMI fields; every one must match. Never empty.
    public var dmi: [DMIField: Glob]
    public var rig: ModelRig
    public var cameras: [ModelCamera] = []
    public var sensors: [ModelSensor] = []
    public var switches: [ModelSwitch] = []
    public var presence: [ModelPresence] = []
    public var displays: [ModelDisplay] = []
    /// What is known not to work on this machine, for `--probe` and the docs.
    public var unsupported: [String] = []
    /// What the model states that its sources did not observe (an inferred DMI value, say).
    public var unchecked: [String] = []

    public init(id: String, name: String, sources: [String], dmi: [DMIField: Glob], rig: ModelRig) {
        self.id = id
        self.name = name
        self.sources = sources
        self.dmi = dmi
        self.rig = rig
    }
}

/// The rig a model is: a built-in preset with its fields overridden, or a whole rig.
public enum ModelRig: Sendable, Equatable {
    case preset(String, overrides: JSONValue?)
    case full(JSONValue)
}

/// A camera of the model, matched to a rig camera by what udev or libcamera names it.
public struct ModelCamera: Sendable, Equatable {
    public var rigCamera: String
    /// "vvvv:pppp", lower-case hex: udev's ID_VENDOR_ID and ID_MODEL_ID.
    public var usb: String?
    /// The V4L2 card name (the node's sysfs `name`).
    public var v4l2Name: Glob?
    /// libcamera's camera id (an ACPI path on x86): only libcamera and PipeWire see it.
    public var libcamera: String?
    /// The sensor's mounting, when the firmware reports it wrong (clockwise degrees).
    public var rotation: Int?
    /// The sensor sub-device (its V4L2 name) whose orientation and rotation controls hold for
    /// this camera when its capture node has none (the kernel puts them on the sub-device).
    public var subdevice: Glob?
    public var mirrored: Bool?
}

/// An IIO sensor of the model and what it is in the rig.
public struct ModelSensor: Sendable, Equatable {
    public enum Role: Sendable, Equatable {
        case hinge(String)
        case accelerometer(String)
    }

    public var role: Role
    /// The IIO device's `name` (`hinge`, `accel_3d`, `cros-ec-accel`).
    public var iioName: Glob?
    /// The location label the sensor carries (udev ACCEL_LOCATION or sysfs `location`).
    public var location: String?
    public var corrections: SensorCorrections = SensorCorrections()
}

/// Corrections for a sensor that reports wrongly; passed on to the sensor layer as data.
public struct SensorCorrections: Sendable, Equatable {
    /// Row-major 3x3 matrix from the chip's axes to the panel's.
    public var mountMatrix: [Double]?
    /// The sensor's location label is the other half's (display for base, base for display).
    public var swapLocation = false
    /// -1 when the sensor counts the other way.
    public var sign = 1
    /// Degrees added after the sign.
    public var offset = 0.0
    /// A reading the sensor is known to be stuck at, e.g. 0 (a hint for the plausibility checks).
    public var stuckAt: Double?

    public init() {}
}

/// A switch the model has, and whether it is to be believed.
public struct ModelSwitch: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case lid, tabletMode }
    public enum Trust: String, Sendable, CaseIterable { case override, hint, ignore }

    public var kind: Kind
    /// The input device's name as libinput reports it.
    public var deviceName: Glob?
    public var trust: Trust
}

/// A device whose appearing or going says something about the rig (a keyboard laid on a screen).
public struct ModelPresence: Sendable, Equatable {
    public var id: String
    public var usb: String?
    public var bluetooth: String?
    public var inputName: Glob?
    /// A platform device's sysfs attribute: non-zero while present.
    public var attribute: PlatformAttribute? = nil
    /// What of the rig it covers while present: a display, or one face of it.
    public var covers: ModelCover?
    public var debounceMilliseconds: Int?
}

/// A rig display by id, and optionally one of its faces (`bottom.A`): checked against the rig.
public struct ModelCover: Sendable, Equatable {
    public var display: String
    public var face: String?

    public init(display: String, face: String? = nil) {
        self.display = display
        self.face = face
    }

    public var description: String { face.map { "face \($0) of display \(display)" } ?? "display \(display)" }
}

/// A display output of the model: its connector and how the panel is mounted.
public struct ModelDisplay: Sendable, Equatable {
    public var rigDisplay: String
    public var connector: String
    /// Clockwise degrees the panel is mounted at (180: upside down).
    public var panelRotation: Int?
}
