/// Which input a suspicion is about: a hinge's own sensor, or the accelerometer pair that gives
/// that hinge's angle.
public enum SensorRef: Hashable, Sendable, Comparable {
    case hinge(Int)
    case accelerometerPair(hinge: Int)
}

/// What a reading showed that cannot be true.
public enum SensorFault: String, Sendable, Equatable {
    /// Non-finite, or further outside the hinge's range than noise explains.
    case outsideRange
    /// Exactly 0° while the lid switch or the accelerometers show the hinge open (Yoga Book 9i
    /// 13IRU8: every hinge channel reads 0).
    case zeroWhileOpen
    /// Hardly moved for a while the lid switch or the accelerometers show the hinge moving
    /// (Yoga Book YB1: always 360°).
    case stuck
    /// The accelerometers give the hinge angle mirrored (360° − the hinge sensor's): their
    /// base/display labels are swapped (two Yoga Book projects found such hwdb entries).
    case swappedLabels
}

/// A sensor set aside: what it is, what was wrong, and a sentence for people.
public struct SensorSuspicion: Sendable, Equatable {
    public var sensor: SensorRef
    public var fault: SensorFault
    public var detail: String
}

/// The thresholds of `SensorPlausibility`, set by the rig's `tunables.plausibility` (so a model
/// can tune them per machine). Reasons for each default are in docs/model.md, "Sensor checks".
public struct PlausibilityLimits: Sendable, Equatable {
    /// Degrees past an end of the hinge's range beyond which a reading is set aside (up to 1° is
    /// clamped and up to this is dropped, as noise).
    public var outsideRange: Double = 5
    /// A hinge moving less than this many degrees counts as standing still.
    public var stuckBelow: Double = 0.5
    /// Standing still this long while other inputs show motion is stuck.
    public var stuckForMilliseconds: Double = 3000
    /// The accelerometers' angle moving this far shows the hinge moving.
    public var movedBy: Double = 10
    /// The accelerometers' angle above this shows the hinge open (for a 0° hinge reading).
    public var openAbove: Double = 45
    /// Within this many degrees two angles agree (swapped-label test).
    public var agreement: Double = 20
    /// Plausible readings in a row that trust a set-aside sensor again.
    public var trustAfter: Double = 3

    public init() {}
}

extension SensorFault {
    /// What a person can do about it; the warning ends with this.
    public var advice: String {
        switch self {
        case .outsideRange:
            return "check the hinge's range in the rig and the sensor's scale (in_angl_scale, the model's offset)"
        case .zeroWhileOpen:
            return "its driver reports no angle on this machine: leave the hinge sensor out of the rig's matches (the accelerometers and switches then decide), or report the model"
        case .stuck:
            return "check that the matched IIO device is this hinge's and that its driver updates (a buffer another process holds can freeze it)"
        case .swappedLabels:
            return "swap the base/display labels of these accelerometers (ACCEL_LOCATION in the hwdb, or the model's sensor correction)"
        }
    }
}

extension SensorRef {
    /// How people and the wire name it: the hinge id, or the accelerometer ids joined by "+".
    public func name(in rig: Rig) -> String {
        switch self {
        case let .hinge(hinge): return rig.hinges[hinge].id
        case .accelerometerPair:
            return rig.accelerometers.map(\.id).joined(separator: "+")
        }
    }

    public var kind: String {
        switch self {
        case .hinge: return "hinge"
        case .accelerometerPair: return "accelerometers"
        }
    }
}
