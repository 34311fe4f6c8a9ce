/// Where every panel is for a set of hinge angles: orientations (for decisions) and, on demand,
/// positions (for drawings).
public struct RigPose: Sendable {
    /// Panel frame → rig frame, per panel.
    public var orientations: [Rotation3]
    /// Per panel: face A covered, face B covered (held against another face by a hinge).
    public var coveredA: [Bool]
    public var coveredB: [Bool]

    public init(rig: Rig, angles: [Double]) {
        var orientations = [Rotation3](repeating: .identity, count: rig.panels.count)
        var coveredA = [Bool](repeating: false, count: rig.panels.count)
        var coveredB = coveredA
        let threshold = rig.tunables.occludedBelow
        for (index, hinge) in rig.hinges.enumerated() {
            let angle = angles[index]
            // Parents precede children, so the parent's orientation is final here.
            orientations[hinge.child] = orientations[hinge.parent] * Rotation3(axis: hinge.axis, degrees: 180 - angle)
            if angle < threshold {
                coveredA[hinge.parent] = true
                coveredA[hinge.child] = true
            }
            if angle > 360 - threshold {
                coveredB[hinge.parent] = true
                coveredB[hinge.child] = true
            }
        }
        self.orientations = orientations
        self.coveredA = coveredA
        self.coveredB = coveredB
    }

    public func isCovered(_ face: FaceRef) -> Bool {
        face.side == .a ? coveredA[face.panel] : coveredB[face.panel]
    }

    /// Outward normal of a face in the rig frame.
    public func normal(_ face: FaceRef) -> Vector3 {
        orientations[face.panel].apply(face.side.normal)
    }

    /// A panel's +y (its top edge direction) in the rig frame.
    public func up(_ panel: Int) -> Vector3 {
        orientations[panel].apply(.unitY)
    }

    /// Centre of each panel in the rig frame (millimetres), for drawings. The root is at the
    /// origin; a child hangs off its parent's hinge edge and turns with the hinge.
    public func panelCentres(rig: Rig, angles: [Double]) -> [Vector3] {
        var centres = [Vector3](repeating: .zero, count: rig.panels.count)
        for (index, hinge) in rig.hinges.enumerated() {
            let parent = rig.panels[hinge.parent]
            let child = rig.panels[hinge.child]
            let (edgePoint, offset): (Vector3, Vector3)
            switch hinge.edge {
            case .right: (edgePoint, offset) = (Vector3(parent.width / 2, 0, 0), Vector3(child.width / 2, 0, 0))
            case .left: (edgePoint, offset) = (Vector3(-parent.width / 2, 0, 0), Vector3(-child.width / 2, 0, 0))
            case .top: (edgePoint, offset) = (Vector3(0, parent.height / 2, 0), Vector3(0, child.height / 2, 0))
            case .bottom: (edgePoint, offset) = (Vector3(0, -parent.height / 2, 0), Vector3(0, -child.height / 2, 0))
            }
            let turned = Rotation3(axis: hinge.axis, degrees: 180 - angles[index]).apply(offset)
            centres[hinge.child] = centres[hinge.parent] + orientations[hinge.parent].apply(edgePoint + turned)
        }
        return centres
    }
}
