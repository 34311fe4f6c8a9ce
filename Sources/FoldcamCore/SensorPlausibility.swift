/// Judges every hinge and accelerometer reading before it may vote: a pure machine fed the
/// readings with the time they were taken (milliseconds on any monotonic scale), returning
/// whether the reading may be used and what changed. One suspicion per sensor at a time; it
/// lasts until `trustAfter` plausible readings in a row.
public struct SensorPlausibility: Sendable {
    /// A set-aside started or ended: said once per episode.
    public enum Notice: Sendable, Equatable {
        case setAside(SensorSuspicion)
        case trusted(SensorRef, was: SensorFault)
    }

    private struct HingeTrack {
        /// The value and time the hinge sensor last moved (by `stuckBelow` or more).
        var anchorValue: Double?
        var anchorAt = 0
        var accelerometersAtAnchor: Double?
        var lidToggledSinceAnchor = false
        var latest: Double?
        var accelerometers: Double?
        var stuckValue = 0.0
    }

    public let limits: PlausibilityLimits
    private let hinges: [Hinge]
    /// The hinge the lid switch closes, if the rig maps one.
    private let lidHinge: Int?
    private let switches: SwitchMappings
    private var tracks: [HingeTrack]
    private var lidClosed: Bool?
    private var tabletModeOn = false
    public private(set) var suspicions: [SensorRef: SensorSuspicion] = [:]
    private var streaks: [SensorRef: Int] = [:]

    public init(rig: Rig) {
        limits = rig.tunables.plausibility
        hinges = rig.hinges
        lidHinge = rig.switches.lid?.hinge
        switches = rig.switches
        tracks = Array(repeating: HingeTrack(), count: rig.hinges.count)
    }

    public func isSetAside(_ sensor: SensorRef) -> Bool { suspicions[sensor] != nil }

    /// Current suspicions in a fixed order (hinges first, by index).
    public var ordered: [SensorSuspicion] { suspicions.values.sorted { $0.sensor < $1.sensor } }

    // MARK: Readings

    /// A hinge sensor's reading at `time`: whether it may vote.
    public mutating func hingeReading(_ hinge: Int, _ degrees: Double, at time: Int) -> (usable: Bool, notices: [Notice]) {
        let ref = SensorRef.hinge(hinge)
        let spec = hinges[hinge]
        var notices: [Notice] = []
        if let suspicion = suspicions[ref] {
            let plausible = isPlausible(degrees, hinge: hinge, after: suspicion.fault)
            if !plausible { streaks[ref] = 0; return (false, []) }
            streaks[ref, default: 0] += 1
            guard Double(streaks[ref] ?? 0) >= limits.trustAfter else { return (false, []) }
            clear(ref)
            notices.append(.trusted(ref, was: suspicion.fault))
            restartAnchor(hinge, at: degrees, time: time)
            tracks[hinge].latest = degrees
            return (true, notices)
        }
        if !degrees.isFinite || degrees < spec.minimum - limits.outsideRange || degrees > spec.maximum + limits.outsideRange {
            return (false, [setAside(ref, .outsideRange, "hinge \(spec.id): the sensor read \(numberText(degrees))°, more than \(numberText(limits.outsideRange))° outside the hinge's range [\(numberText(spec.minimum)), \(numberText(spec.maximum))]")])
        }
        if degrees == 0, let evidence = openEvidence(hinge) {
            return (false, [setAside(ref, .zeroWhileOpen, "hinge \(spec.id): the sensor reads exactly 0° while \(evidence)")])
        }
        var track = tracks[hinge]
        track.latest = degrees
        tracks[hinge] = track
        if let anchor = track.anchorValue, abs(degrees - anchor) < limits.stuckBelow {
            if let stuck = stuckNotice(hinge, at: time) { return (false, [stuck]) }
        } else {
            restartAnchor(hinge, at: degrees, time: time)
        }
        return (true, notices)
    }

    /// The hinge angle two accelerometers give, at `time`: whether it may vote.
    public mutating func accelerometerAngle(_ hinge: Int, _ degrees: Double, at time: Int) -> (usable: Bool, notices: [Notice]) {
        let ref = SensorRef.accelerometerPair(hinge: hinge)
        tracks[hinge].accelerometers = degrees
        if tracks[hinge].accelerometersAtAnchor == nil { tracks[hinge].accelerometersAtAnchor = degrees }
        // The pair's motion is evidence against a stuck hinge sensor, even when the labels are
        // swapped (a mirrored angle moves as far).
        var notices = check(at: time)
        let hingeValue = isSetAside(.hinge(hinge)) ? nil : tracks[hinge].latest
        if let suspicion = suspicions[ref] {
            guard let hingeValue, abs(degrees - hingeValue) <= limits.agreement else {
                streaks[ref] = 0
                return (false, notices)
            }
            streaks[ref, default: 0] += 1
            guard Double(streaks[ref] ?? 0) >= limits.trustAfter else { return (false, notices) }
            clear(ref)
            notices.append(.trusted(ref, was: suspicion.fault))
            return (true, notices)
        }
        if let hingeValue, abs(degrees - hingeValue) > limits.agreement, abs(360 - degrees - hingeValue) <= limits.agreement {
            notices.append(setAside(ref, .swappedLabels, "accelerometers for hinge \(hinges[hinge].id): they give \(numberText(degrees.rounded()))° where the hinge sensor reads \(numberText(hingeValue.rounded()))°, the mirror image: their base/display labels (ACCEL_LOCATION) look swapped"))
            return (false, notices)
        }
        return (true, notices)
    }

    /// `SW_LID` changed at `time`. A hint lid changing while the hinge sensor stands still is
    /// evidence of a stuck sensor; an override rests the sensor (the device layer stops polling
    /// it), so nothing it holds meanwhile is judged.
    public mutating func lidSwitch(closed: Bool, at time: Int) -> [Notice] {
        if let lidHinge, let before = lidClosed, before != closed, switches.lid?.mode == .hint { tracks[lidHinge].lidToggledSinceAnchor = true }
        lidClosed = closed
        if closed, let lidHinge { rest(lidHinge, under: switches.lid) }
        return check(at: time)
    }

    /// `SW_TABLET_MODE` changed at `time`.
    public mutating func tabletModeSwitch(on: Bool, at time: Int) -> [Notice] {
        tabletModeOn = on
        if on, let tablet = switches.tabletMode { rest(tablet.hinge, under: tablet) }
        return check(at: time)
    }

    /// Whether an override switch decides `hinge` now: its sensor is not read meanwhile.
    private func resting(_ hinge: Int) -> Bool {
        func decides(_ mapping: SwitchMapping?) -> Bool { mapping?.hinge == hinge && mapping?.mode == .override }
        return (lidClosed == true && decides(switches.lid)) || (tabletModeOn && decides(switches.tabletMode))
    }

    /// An override switch took `hinge`: forget the held value, so neither a stuck window nor
    /// the label check runs on a reading that is no longer being taken.
    private mutating func rest(_ hinge: Int, under mapping: SwitchMapping?) {
        guard mapping?.mode == .override else { return }
        tracks[hinge].latest = nil
        tracks[hinge].anchorValue = nil
    }

    /// Re-judges each trusted hinge sensor's held value at `time`: new evidence (the lid
    /// opening, the accelerometers' angle) can contradict a 0 taken before it, and any input, or
    /// time passing, may complete a stuck window. A sensor that reports only on change sends
    /// nothing more to be judged by.
    public mutating func check(at time: Int) -> [Notice] {
        hinges.indices.compactMap { hinge in
            guard !isSetAside(.hinge(hinge)), !resting(hinge), let latest = tracks[hinge].latest else { return nil }
            if latest == 0, let evidence = openEvidence(hinge) {
                return setAside(.hinge(hinge), .zeroWhileOpen, "hinge \(hinges[hinge].id): the sensor reads exactly 0° while \(evidence)")
            }
            guard let anchor = tracks[hinge].anchorValue, abs(latest - anchor) < limits.stuckBelow else { return nil }
            return stuckNotice(hinge, at: time)
        }
    }

    /// When a stuck window already backed by motion completes (the same scale as the readings'
    /// times), or nil. A stuck sensor that reports only on change sends nothing more, and the rig
    /// may stop moving within the window: the shell applies `.advanceTime` then, so time passing
    /// completes it.
    public var nextDeadline: Int? {
        hinges.indices.compactMap { hinge -> Int? in
            let track = tracks[hinge]
            guard !isSetAside(.hinge(hinge)), !resting(hinge), let latest = track.latest, let anchor = track.anchorValue,
                  abs(latest - anchor) < limits.stuckBelow, Self.motionEvidence(track, limits) != nil else { return nil }
            return track.anchorAt + Int(limits.stuckForMilliseconds.rounded(.up))
        }.min()
    }

    /// The hinge sensor went away: nothing of it is judged any more until it reads again.
    public mutating func hingeLost(_ hinge: Int) {
        clear(.hinge(hinge))
        tracks[hinge].anchorValue = nil
        tracks[hinge].latest = nil
    }

    public mutating func accelerometersLost(_ hinge: Int) {
        clear(.accelerometerPair(hinge: hinge))
        tracks[hinge].accelerometers = nil
        tracks[hinge].accelerometersAtAnchor = nil
    }

    // MARK: Rules

    private func isPlausible(_ degrees: Double, hinge: Int, after fault: SensorFault) -> Bool {
        let spec = hinges[hinge]
        guard degrees.isFinite, degrees >= spec.minimum - 1, degrees <= spec.maximum + 1 else { return false }
        switch fault {
        case .outsideRange: return true
        case .zeroWhileOpen: return degrees != 0 || openEvidence(hinge) == nil
        case .stuck: return abs(degrees - tracks[hinge].stuckValue) >= limits.stuckBelow
        case .swappedLabels: return true
        }
    }

    /// What shows the hinge open now, or nil.
    private func openEvidence(_ hinge: Int) -> String? {
        if hinge == lidHinge, lidClosed == false { return "the lid switch says open" }
        if !isSetAside(.accelerometerPair(hinge: hinge)), let angle = tracks[hinge].accelerometers, angle > limits.openAbove {
            return "the accelerometers give \(numberText(angle.rounded()))°"
        }
        return nil
    }

    private mutating func stuckNotice(_ hinge: Int, at time: Int) -> Notice? {
        let track = tracks[hinge]
        guard let anchor = track.anchorValue, Double(time - track.anchorAt) >= limits.stuckForMilliseconds,
              let evidence = Self.motionEvidence(track, limits) else { return nil }
        tracks[hinge].stuckValue = anchor
        let seconds = Double(time - track.anchorAt) / 1000
        return setAside(.hinge(hinge), .stuck, "hinge \(hinges[hinge].id): the sensor stayed at \(numberText(anchor))° for \(numberText((seconds * 10).rounded() / 10)) s while \(evidence)")
    }

    /// What shows the rig moving since the hinge sensor's value was anchored, or nil.
    private static func motionEvidence(_ track: HingeTrack, _ limits: PlausibilityLimits) -> String? {
        if let now = track.accelerometers, let then = track.accelerometersAtAnchor, abs(now - then) >= limits.movedBy {
            return "the accelerometers moved \(numberText(abs(now - then).rounded()))°"
        }
        return track.lidToggledSinceAnchor ? "the lid switch changed" : nil
    }

    private mutating func restartAnchor(_ hinge: Int, at degrees: Double, time: Int) {
        tracks[hinge].anchorValue = degrees
        tracks[hinge].anchorAt = time
        tracks[hinge].accelerometersAtAnchor = tracks[hinge].accelerometers
        tracks[hinge].lidToggledSinceAnchor = false
    }

    private mutating func setAside(_ ref: SensorRef, _ fault: SensorFault, _ detail: String) -> Notice {
        let suspicion = SensorSuspicion(sensor: ref, fault: fault, detail: detail)
        suspicions[ref] = suspicion
        streaks[ref] = 0
        return .setAside(suspicion)
    }

    private mutating func clear(_ ref: SensorRef) {
        suspicions[ref] = nil
        streaks[ref] = nil
    }
}
