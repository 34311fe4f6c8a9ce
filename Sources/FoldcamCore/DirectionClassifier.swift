/// Direction decisions: which side of a display each camera faces, with hysteresis.
public enum DirectionClassifier {
    /// Normalized sum of the display's face normals; the anchor face's normal when they cancel
    /// (a spanning display folded shut). Nil never happens for valid rigs; kept total.
    public static func viewingNormal(_ display: Display, pose: RigPose) -> Vector3? {
        var sum = Vector3.zero
        for face in display.faces { sum = sum + pose.normal(face) }
        if let normal = sum.normalized { return normal }
        return pose.normal(FaceRef(panel: display.anchor, side: display.anchorSide)).normalized
    }

    /// Forward when θ < 90°. A camera already classified keeps its side until θ leaves the
    /// band 90° ± hysteresis.
    public static func isForward(theta: Double, previous: Bool?, hysteresis: Double) -> Bool {
        switch previous {
        case .some(true): return theta <= 90 + hysteresis
        case .some(false): return theta < 90 - hysteresis
        case .none: return theta < 90
        }
    }
}
