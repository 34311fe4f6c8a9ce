/// Two accelerometers on panels joined directly by one hinge: together they give that hinge's
/// angle (from how gravity turns between the two frames) and gravity in the rig frame.
public struct AccelerometerPair: Sendable {
    /// Index of the accelerometer on the hinge's parent panel, and on its child panel.
    public var parentSensor: Int
    public var childSensor: Int
    public var hinge: Int

    public init?(_ rig: Rig) {
        guard rig.accelerometers.count == 2 else { return nil }
        for (first, second) in [(0, 1), (1, 0)] {
            let parentPanel = rig.accelerometers[first].panel
            let childPanel = rig.accelerometers[second].panel
            if let hinge = rig.panels[childPanel].hinge, rig.hinges[hinge].parent == parentPanel {
                self.parentSensor = first
                self.childSensor = second
                self.hinge = hinge
                return
            }
        }
        return nil
    }

    /// The hinge angle from gravity measured in the parent frame and in the child frame, or
    /// nil when gravity lies too close to the hinge axis to tell. Of the angles that fit
    /// (α, α ± 360), the one nearest `near` within the hinge's range wins: closed and
    /// folded-back look alike to accelerometers.
    public static func hingeAngle(
        parentReading p: Vector3, childReading c: Vector3, hinge: Hinge, minimumProjection: Double, near: Double
    ) -> Double? {
        let k = hinge.axis
        let pAcross = p.projected(perpendicularTo: k)
        let cAcross = c.projected(perpendicularTo: k)
        guard pAcross.length >= minimumProjection * p.length, cAcross.length >= minimumProjection * c.length,
              pAcross.length > 1e-9, cAcross.length > 1e-9 else { return nil }
        // The child frame is the parent frame turned by ψ about k, so Rot(k, ψ)·c ∥ p.
        let psi = Trig.degrees(Trig.atan2(k.dot(cAcross.cross(pAcross)), cAcross.dot(pAcross)))
        let base = 180 - psi
        let candidates = [base - 360, base, base + 360].filter { $0 >= hinge.minimum - 1 && $0 <= hinge.maximum + 1 }
        guard let best = candidates.min(by: { abs($0 - near) < abs($1 - near) }) else { return nil }
        return min(max(best, hinge.minimum), hinge.maximum)
    }
}
