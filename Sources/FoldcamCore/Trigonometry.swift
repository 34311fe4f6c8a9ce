/// Trigonometry in pure Swift. The standard library has no `sin`/`atan2` (they come from the C
/// library), and the core imports nothing, so these are small series with argument reduction,
/// accurate to a few ulps over the ranges the model uses.
public enum Trig {
    public static let pi = Double.pi

    @inlinable public static func radians(_ degrees: Double) -> Double { degrees * (pi / 180) }
    @inlinable public static func degrees(_ radians: Double) -> Double { radians * (180 / pi) }

    /// Sine and cosine of `x` radians together (one argument reduction for both).
    public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        // Reduce to r in [-pi/4, pi/4] with x = r + k * pi/2.
        let quadrant = (x / (pi / 2)).rounded()
        let r = x - quadrant * (pi / 2)
        let r2 = r * r
        // Taylor series to r^17 and r^16; with |r| <= pi/4 the first omitted terms are below 1e-18.
        var s = 1.0 / 355687428096000  // 1/17!
        s = 1.0 / 1307674368000 - r2 * s  // 1/15!
        s = 1.0 / 6227020800 - r2 * s  // 1/13!
        s = 1.0 / 39916800 - r2 * s
        s = 1.0 / 362880 - r2 * s
        s = 1.0 / 5040 - r2 * s
        s = 1.0 / 120 - r2 * s
        s = 1.0 / 6 - r2 * s
        let sinR = r - r * r2 * s
        var c = 1.0 / 20922789888000  // 1/16!
        c = 1.0 / 87178291200 - r2 * c  // 1/14!
        c = 1.0 / 479001600 - r2 * c  // 1/12!
        c = 1.0 / 3628800 - r2 * c
        c = 1.0 / 40320 - r2 * c
        c = 1.0 / 720 - r2 * c
        c = 1.0 / 24 - r2 * c
        c = 0.5 - r2 * c
        let cosR = 1 - r2 * c
        let k = Int(quadrant) & 3
        switch k {
        case 0: return (sinR, cosR)
        case 1: return (cosR, -sinR)
        case 2: return (-sinR, -cosR)
        default: return (-cosR, sinR)
        }
    }

    public static func atan(_ x: Double) -> Double {
        if x.isNaN { return x }
        let magnitude = Swift.abs(x)
        var result: Double
        if magnitude > 1 {
            result = pi / 2 - atanReduced(1 / magnitude)
        } else {
            result = atanReduced(magnitude)
        }
        if x < 0 { result = -result }
        return result
    }

    /// atan for 0 <= x <= 1: halve the angle twice (|x| <= 0.2), then the series.
    private static func atanReduced(_ x: Double) -> Double {
        var y = x
        var scale = 1.0
        for _ in 0..<2 {
            y = y / (1 + (1 + y * y).squareRoot())
            scale *= 2
        }
        let y2 = y * y
        var sum = 0.0
        var term = y
        var n = 1.0
        // 13 terms: y <= 0.2 gives an error below 1e-19.
        for index in 0..<13 {
            sum += (index % 2 == 0 ? term : -term) / n
            term *= y2
            n += 2
        }
        return sum * scale
    }

    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x > 0 { return atan(y / x) }
        if x < 0 { return y >= 0 ? atan(y / x) + pi : atan(y / x) - pi }
        if y > 0 { return pi / 2 }
        if y < 0 { return -pi / 2 }
        return 0
    }

    /// acos clamped to [-1, 1] (rounding can push a dot product of unit vectors past 1).
    public static func acos(_ x: Double) -> Double {
        let clamped = Swift.min(1, Swift.max(-1, x))
        return atan2((1 - clamped * clamped).squareRoot(), clamped)
    }
}
