/// The poses `foldcamctl calibrate` asks for, and when a pose's readings have settled (pure).
public struct CalibrationStep: Sendable, Equatable {
    public var target: Double
    /// What to tell the user: "Close the lid fully (0°)".
    public var instruction: String

    public static let all = [
        CalibrationStep(target: 0, instruction: "close the rig fully (0°)"),
        CalibrationStep(target: 90, instruction: "open it to a right angle (90°)"),
        CalibrationStep(target: 180, instruction: "open it flat (180°)"),
        CalibrationStep(target: 300, instruction: "fold it back to a tent standing on its edges (300°)"),
    ]

    /// The steps a hinge can reach (a dual-screen hinge that stops at 180° has no tent step).
    public static func steps(for hinge: Hinge) -> [CalibrationStep] {
        all.filter { (hinge.minimum...hinge.maximum).contains($0.target) }
    }
}

/// Settled readings: `count` samples in a row whose every channel lies within `spread` degrees
/// (a channel that reads nothing, such as accelerometers with gravity along the hinge, must read
/// nothing in each of them). The settled value is each channel's mean.
public struct SteadyReadings: Sendable {
    public static let count = 5
    public static let spread = 1.0
    private var window: [[Double?]] = []

    public init() {}

    /// Adds one sample (one value per channel); the settled values once the last `count` agree.
    public mutating func add(_ sample: [Double?]) -> [Double?]? {
        window.append(sample)
        if window.count > Self.count { window.removeFirst() }
        guard window.count == Self.count else { return nil }
        var settled: [Double?] = []
        for channel in sample.indices {
            let values = window.map { $0.indices.contains(channel) ? $0[channel] : nil }
            let present = values.compactMap { $0 }
            if present.isEmpty {
                settled.append(nil)
                continue
            }
            guard present.count == values.count, let low = present.min(), let high = present.max(), high - low <= Self.spread else { return nil }
            settled.append(present.reduce(0, +) / Double(present.count))
        }
        return settled
    }
}
