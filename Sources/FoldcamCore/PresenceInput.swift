/// A device whose presence is an input (docs/model.md, "Presence inputs"): the Zenbook Duo's
/// keyboard lying on the lower screen shows only as a USB device appearing (`0b05:1b2c`, or
/// `0b05:1bf2` on the 2025 model). While present it covers displays and/or sets the posture.
public struct PresenceInput: Sendable, Equatable {
    public var id: String
    /// USB `vendor:product` ids in lowercase hex (any one matches), as udev's `ID_VENDOR_ID` and
    /// `ID_MODEL_ID` give them.
    public var usbIDs: [String]
    /// A change holds this long before it counts (counted in the inputs' own times).
    public var debounceMilliseconds: Int
    /// Displays occluded while present.
    public var covers: [Int]
    /// The posture while present (nil: the hinges decide).
    public var posture: Int?

    public init(id: String, usbIDs: [String], debounceMilliseconds: Int = 400, covers: [Int] = [], posture: Int? = nil) {
        self.id = id
        self.usbIDs = usbIDs
        self.debounceMilliseconds = debounceMilliseconds
        self.covers = covers
        self.posture = posture
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
