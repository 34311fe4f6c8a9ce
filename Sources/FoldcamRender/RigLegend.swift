import FoldcamCore

/// What the engine decides at the pictured hinge angles, for the picture's legend and for
/// tests. It runs the real `FoldEngine` (from the hinges' initial angles to the requested
/// ones), so the legend cannot drift from what the daemon would say.
public struct RigLegend: Sendable {
    public struct DisplayEntry: Sendable, Equatable {
        public var id: String
        public var occluded: Bool
        /// Camera ids, best-facing first.
        public var forward: [String]
        public var backward: [String]
    }

    /// Effective angles, one per hinge (what the picture shows).
    public let angles: [Double]
    public let hinges: [String]
    public let posture: String
    public let viewedDisplay: String
    public let displays: [DisplayEntry]
    /// Per camera index: why it cannot be used, or nil.
    public let unavailableReasons: [UnavailableReason?]
    public let virtualCameraSource: String?
    /// Rig-description warnings (hinge axis sign or direction).
    public let notes: [String]
    private let cameraIDs: [String]

    /// "inner-front (occluded)", one per unavailable camera.
    public var unavailable: [String] {
        cameraIDs.indices.compactMap { index in
            unavailableReasons[index].map { "\(cameraIDs[index]) (\($0.rawValue))" }
        }
    }

    public init(rig: Rig, angles: [Double]) {
        var engine = FoldEngine(rig: rig)
        for (hinge, degrees) in zip(rig.hinges.indices, angles) {
            _ = engine.apply(.hingeAngle(hinge: hinge, degrees: degrees))
        }
        let state = engine.state
        self.angles = state.hingeAngles
        hinges = rig.hinges.indices.map { index in
            let hinge = rig.hinges[index]
            return "\(hinge.id) = \(NumberText.degrees(state.hingeAngles[index]))  (range \(NumberText.compact(hinge.minimum))–\(NumberText.degrees(hinge.maximum)), initial \(NumberText.degrees(hinge.initial)); axis \(NumberText.vector(hinge.axis)) on \(rig.panels[hinge.parent].id)'s \(hinge.edge.rawValue) edge, moves \(rig.panels[hinge.child].id))"
        }
        posture = rig.postures[state.posture].id
        viewedDisplay = rig.displays[state.viewedDisplay].id
        displays = rig.displays.indices.map { index in
            let decided = state.displays[index]
            return DisplayEntry(
                id: rig.displays[index].id, occluded: decided.occluded,
                forward: decided.forward.map { rig.cameras[$0].id },
                backward: decided.backward.map { rig.cameras[$0].id })
        }
        unavailableReasons = state.cameras.map(\.unavailable)
        cameraIDs = rig.cameras.map(\.id)
        virtualCameraSource = state.virtualCamera.source.map { rig.cameras[$0].id }
        notes = HingeAxisCheck.notes(for: rig)
    }

    /// One line per display: "inner: forward [inner-front], backward [outer-front, back]".
    public var displayLines: [String] {
        displays.map { entry in
            if entry.occluded { return "\(entry.id): occluded (folded shut)" }
            return "\(entry.id): forward [\(entry.forward.joined(separator: ", "))], backward [\(entry.backward.joined(separator: ", "))]"
        }
    }

    /// Every legend line, in reading order.
    public var lines: [String] {
        var lines = hinges
        lines.append("posture \(posture): viewed display \(viewedDisplay)")
        lines += displayLines
        lines.append("unavailable cameras: " + (unavailable.isEmpty ? "none" : unavailable.joined(separator: ", ")))
        lines.append("virtual camera source: " + (virtualCameraSource ?? "none"))
        lines += notes.map { "warning: " + $0 }
        return lines
    }
}
