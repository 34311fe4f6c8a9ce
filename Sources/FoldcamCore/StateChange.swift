/// What differs between two consecutive states, so the daemon reconfigures only what must
/// change and notifies only the topics that moved.
public struct StateChange: Sendable, Equatable {
    public var hinges = false
    public var posture = false
    public var viewedDisplay = false
    /// Displays whose direction map (occlusion, forward, backward, mirroring, rotation) changed.
    /// θ alone moving is not a change: it moves with every hinge reading.
    public var displays: [Int] = []
    /// Cameras whose availability or capture rotation changed.
    public var cameras: [Int] = []
    public var virtualCameraSource = false
    /// Some display's recommended rotation or power changed.
    public var screens = false
    /// A sensor was set aside or trusted again.
    public var sensors = false
    /// A presence input started or stopped counting.
    public var presence = false

    public init() {}

    public init(from old: FoldState, to new: FoldState) {
        hinges = old.hingeAngles != new.hingeAngles || old.hingeSources != new.hingeSources
        posture = old.posture != new.posture
        viewedDisplay = old.viewedDisplay != new.viewedDisplay || old.pinnedDisplay != new.pinnedDisplay
        displays = new.displays.indices.filter {
            !old.displays[$0].sameDecisions(as: new.displays[$0]) || old.screenRotations[$0] != new.screenRotations[$0]
        }
        cameras = new.cameras.indices.filter { old.cameras[$0] != new.cameras[$0] }
        virtualCameraSource = old.virtualCamera != new.virtualCamera
        screens = old.screens != new.screens
        sensors = old.suspectSensors != new.suspectSensors
        presence = old.present != new.present
    }

    public var isEmpty: Bool {
        !hinges && !posture && !viewedDisplay && displays.isEmpty && cameras.isEmpty && !virtualCameraSource && !screens && !sensors && !presence
    }

    /// The names of what changed, in a fixed order (also the socket's topic names where they match).
    public var topics: [String] {
        var names: [String] = []
        if hinges { names.append("hinges") }
        if posture { names.append("posture") }
        if viewedDisplay { names.append("viewedDisplay") }
        if !displays.isEmpty { names.append("directions") }
        if !cameras.isEmpty { names.append("cameras") }
        if virtualCameraSource { names.append("virtualCamera") }
        if screens { names.append("screens") }
        if sensors { names.append("sensors") }
        if presence { names.append("presence") }
        return names
    }
}

/// The result of applying one input: the new state, what changed, and any input that was
/// rejected (with why), so callers can log it.
public struct FoldUpdate: Sendable {
    public var state: FoldState
    public var change: StateChange
    public var warnings: [String]
    /// Information worth a log line (a sensor trusted again).
    public var notes: [String] = []
    /// When a pending presence change would count or a stuck window complete: the shell applies
    /// `.advanceTime` then (a timer).
    public var nextCheckAtMilliseconds: Int?
}

extension DisplayState {
    /// Equal in everything a client acts on (θ is informational and ignored).
    func sameDecisions(as other: DisplayState) -> Bool {
        guard occluded == other.occluded, unviewable == other.unviewable, outputState == other.outputState,
              mountRotation == other.mountRotation, mountRotationSource == other.mountRotationSource, covered == other.covered,
              forward == other.forward, backward == other.backward else { return false }
        return zip(pairs, other.pairs).allSatisfy { a, b in
            a?.forward == b?.forward && a?.mirror == b?.mirror && a?.previewRotation == b?.previewRotation
        }
    }
}
