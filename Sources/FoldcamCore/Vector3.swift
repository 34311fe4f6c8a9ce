/// A 3-vector in a panel frame or the rig frame.
public struct Vector3: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)
    public static let unitX = Vector3(1, 0, 0)
    public static let unitY = Vector3(0, 1, 0)
    public static let unitZ = Vector3(0, 0, 1)

    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    @inlinable public static func * (s: Double, a: Vector3) -> Vector3 { Vector3(s * a.x, s * a.y, s * a.z) }

    @inlinable public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    @inlinable public func cross(_ other: Vector3) -> Vector3 {
        Vector3(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }

    @inlinable public var length: Double { dot(self).squareRoot() }

    /// The unit vector in this direction, or nil for a (nearly) zero vector.
    public var normalized: Vector3? {
        let length = self.length
        guard length > 1e-9, length.isFinite else { return nil }
        return (1 / length) * self
    }

    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    /// Why this vector cannot give a direction (gravity, an accelerometer reading), or nil when
    /// it can: finite components are not enough, [1e308, 0, 1e308] has an infinite length and
    /// normalises to NaN. `minimumLength` is what counts as zero for the caller.
    public func directionProblem(minimumLength: Double) -> String? {
        guard isFinite else { return "has a component that is not a finite number" }
        guard length.isFinite else { return "is too long: its length overflows a double" }
        guard length > minimumLength else { return "is (nearly) zero, so it has no direction" }
        return nil
    }

    /// This vector with its component along unit vector `axis` removed.
    public func projected(perpendicularTo axis: Vector3) -> Vector3 {
        self - dot(axis) * axis
    }

    /// Angle to another vector, in degrees (0...180). Both must be non-zero.
    public func angle(to other: Vector3) -> Double {
        let denominator = length * other.length
        guard denominator > 0 else { return 90 }
        return Trig.degrees(Trig.acos(dot(other) / denominator))
    }

    public var description: String { "(\(x), \(y), \(z))" }
}
