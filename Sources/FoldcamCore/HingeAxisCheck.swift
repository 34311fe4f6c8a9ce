/// Catches the hinge mistakes a rig's geometry cannot reject on its own: an axis that does not
/// run along its edge, or one signed so that closing swings the child over the parent's B face
/// (docs/model.md, "Choosing the axis sign", wants the A face). Shared by `foldcamctl rig
/// render` (a warning in the picture) and `foldcamd --check-config` (a warning in the listing).
public enum HingeAxisCheck {
    public static func notes(for rig: Rig) -> [String] {
        rig.hinges.compactMap { hinge in
            let parent = rig.panels[hinge.parent].id
            let child = rig.panels[hinge.child].id
            let (outward, along) = directions(hinge.edge)
            guard abs(abs(hinge.axis.dot(along)) - 1) < 1e-3 else {
                return "hinge \(hinge.id): axis \(vectorText(hinge.axis)) does not run along \(parent)'s \(hinge.edge.rawValue) edge (expected ±\(vectorText(along)))"
            }
            // Where the child's far side goes at 90°: it must be on the parent's A side (+z).
            let swung = Rotation3(axis: hinge.axis, degrees: 90).apply(outward)
            guard swung.z > 0 else {
                return "hinge \(hinge.id): closing swings \(child) over \(parent)'s B face; the axis should be \(vectorText(-hinge.axis))"
            }
            return nil
        }
    }

    /// "(0, -1, 0)", as written in rig files (up to two decimals, like the rendered legend).
    static func vectorText(_ v: Vector3) -> String {
        "(" + [v.x, v.y, v.z].map(compact).joined(separator: ", ") + ")"
    }

    private static func compact(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int((value * 100).rounded())
        let magnitude = hundredths.magnitude
        let fraction = magnitude % 100
        let whole = (hundredths < 0 ? "-" : "") + String(magnitude / 100)
        if fraction == 0 { return whole }
        return whole + "." + (fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction))
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
