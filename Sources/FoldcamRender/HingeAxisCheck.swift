import FoldcamCore

/// Catches the rig-description mistakes the picture exists to reveal, in words as well: a hinge
/// axis that does not run along its edge, or one signed so that closing swings the child over
/// the parent's B face (docs/model.md, "Choosing the axis sign", wants the A face).
enum HingeAxisCheck {
    static func notes(for rig: Rig) -> [String] {
        rig.hinges.compactMap { hinge in
            let parent = rig.panels[hinge.parent].id
            let child = rig.panels[hinge.child].id
            let (outward, along) = directions(hinge.edge)
            guard abs(abs(hinge.axis.dot(along)) - 1) < 1e-3 else {
                return "hinge \(hinge.id): axis \(NumberText.vector(hinge.axis)) does not run along \(parent)'s \(hinge.edge.rawValue) edge (expected ±\(NumberText.vector(along)))"
            }
            // Where the child's far side goes at 90°: it must be on the parent's A side (+z).
            let swung = Rotation3(axis: hinge.axis, degrees: 90).apply(outward)
            guard swung.z > 0 else {
                return "hinge \(hinge.id): closing swings \(child) over \(parent)'s B face; the axis should be \(NumberText.vector(-hinge.axis))"
            }
            return nil
        }
    }

    /// Unit vectors (parent frame) pointing out across an edge, and along it.
    private static func directions(_ edge: PanelEdge) -> (outward: Vector3, along: Vector3) {
        switch edge {
        case .right: return (.unitX, .unitY)
        case .left: return (-.unitX, .unitY)
        case .top: return (.unitY, .unitX)
        case .bottom: return (-.unitY, .unitX)
        }
    }
}
