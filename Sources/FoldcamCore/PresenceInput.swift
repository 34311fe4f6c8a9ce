/// A device whose presence is an input (docs/model.md, "Presence inputs"): the Zenbook Duo's
/// keyboard lying on the lower screen shows only as a USB device appearing (`0b05:1b2c`, or
/// `0b05:1bf2` on the 2025 model); the ThinkPad X1 Fold's keyboard laid on the lower half of its
/// one screen shows, on a kernel that has it, as a platform device's sysfs attribute reading 1.
/// While present it covers displays, or faces of displays, and/or sets the posture.
public struct PresenceInput: Sendable, Equatable {
    public var id: String
    /// USB `vendor:product` ids in lowercase hex (any one matches), as udev's `ID_VENDOR_ID` and
    /// `ID_MODEL_ID` give them. Empty for an attribute input.
    public var usbIDs: [String]
    /// A platform device's sysfs attribute whose value says present (non-zero) or absent (0).
    public var attribute: PlatformAttribute?
    /// A change holds this long before it counts (counted in the inputs' own times).
    public var debounceMilliseconds: Int
    /// What it lies on while present: whole displays, or one face of a display.
    public var covers: [DisplayCover]
    /// The posture while present (nil: the hinges decide).
    public var posture: Int?

    public init(
        id: String, usbIDs: [String] = [], attribute: PlatformAttribute? = nil, debounceMilliseconds: Int = 400,
        covers: [DisplayCover] = [], posture: Int? = nil
    ) {
        self.id = id
        self.usbIDs = usbIDs
        self.attribute = attribute
        self.debounceMilliseconds = debounceMilliseconds
        self.covers = covers
        self.posture = posture
    }
}

/// What a presence input lies on: a whole display, or one of its faces (the rest stays in view).
public struct DisplayCover: Sendable, Equatable, Hashable {
    public var display: Int
    /// Nil: the whole display.
    public var face: FaceRef?

    public init(display: Int, face: FaceRef? = nil) {
        self.display = display
        self.face = face
    }
}

/// `/sys/devices/platform/DEVICE/NAME`: an attribute of a platform device, read as a number.
public struct PlatformAttribute: Sendable, Equatable, Hashable {
    /// The platform device's name (its sysfs directory), e.g. `thinkpad_acpi`.
    public var device: String
    /// The attribute's file name, e.g. `keyboard_attached_on_screen`.
    public var name: String

    public init(device: String, name: String) {
        self.device = device
        self.name = name
    }

    public var path: String { "/sys/devices/platform/\(device)/\(name)" }

    /// A sysfs name: one path component of letters, digits and `_ - . :`, not `.` or `..`.
    public static func problem(_ text: String) -> String? {
        if text.isEmpty || text.count > 64 { return "must be 1 to 64 characters" }
        if text == "." || text == ".." { return "must name a file, not \"\(text)\"" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:")
        guard text.allSatisfy({ allowed.contains($0) }) else {
            return "may hold only letters, digits and _ - . : (one sysfs name, no \"/\")"
        }
        return nil
    }

    /// What the attribute's text says: non-zero present, 0 absent; nil when it is no integer.
    public static func present(_ text: String) -> Bool? {
        let trimmed = text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        guard let value = Int(String(trimmed)) else { return nil }
        return value != 0
    }
}

/// Debounces presence inputs in the times their events carry: a change counts once it has
/// held `debounceMilliseconds` with no change back. A pure machine: it never waits; the shell
/// asks it again at `nextDeadline` (the daemon arms a timer, a scenario's `wait` steps pass).
public struct PresenceDebounce: Sendable {
    private let inputs: [PresenceInput]
    /// What counts now (absent until seen).
    public private(set) var present: [Bool]
    private var pending: [(present: Bool, since: Int)?]

    public init(_ inputs: [PresenceInput]) {
        self.inputs = inputs
        present = Array(repeating: false, count: inputs.count)
        pending = Array(repeating: nil, count: inputs.count)
    }

    /// The device appeared or went at `time`. Going back to what counts cancels the change.
    public mutating func observe(_ input: Int, present now: Bool, at time: Int) {
        if now == present[input] {
            pending[input] = nil
        } else if pending[input]?.present != now {
            pending[input] = (now, time)
        }
    }

    /// Changes that have held long enough by `time` count; returns the inputs that changed.
    public mutating func settle(at time: Int) -> [Int] {
        var changed: [Int] = []
        for index in inputs.indices {
            guard let change = pending[index], time - change.since >= inputs[index].debounceMilliseconds else { continue }
            present[index] = change.present
            pending[index] = nil
            changed.append(index)
        }
        return changed
    }

    /// The earliest time a pending change would count; nil when none is pending.
    public var nextDeadline: Int? {
        inputs.indices.compactMap { index in pending[index].map { $0.since + inputs[index].debounceMilliseconds } }.min()
    }
}
