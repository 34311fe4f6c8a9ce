/// Which posture a set of hinge angles is in, with hysteresis at the boundaries.
public enum PostureResolver {
    /// The first posture whose ranges contain the angles exactly ([from, to), with `to`
    /// included when it is the hinge's maximum).
    public static func strictMatch(_ rig: Rig, angles: [Double]) -> Int? {
        rig.postures.firstIndex { contains($0, angles: angles, rig: rig, margin: 0) }
    }

    /// Stays in `previous` until an angle passes one of its boundaries by the margin.
    public static func resolve(_ rig: Rig, angles: [Double], previous: Int?) -> Int {
        if let previous, contains(rig.postures[previous], angles: angles, rig: rig, margin: rig.tunables.postureMargin) {
            return previous
        }
        // Validation guarantees coverage; the fallbacks only guard hand-built rigs.
        return strictMatch(rig, angles: angles) ?? previous ?? 0
    }

    static func contains(_ posture: Posture, angles: [Double], rig: Rig, margin: Double) -> Bool {
        for range in posture.ranges {
            let angle = angles[range.hinge]
            let maximum = rig.hinges[range.hinge].maximum
            let lower = range.lower - margin
            if angle < lower { return false }
            if range.upper >= maximum {
                if angle > maximum { return false }
            } else if angle >= range.upper + margin {
                return false
            }
        }
        return true
    }
}
