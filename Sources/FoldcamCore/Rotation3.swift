/// A rotation as a 3x3 orthonormal matrix (rows), mapping a child frame into its parent frame.
public struct Rotation3: Equatable, Sendable {
    public var row0: Vector3
    public var row1: Vector3
    public var row2: Vector3

    public static let identity = Rotation3(row0: .unitX, row1: .unitY, row2: .unitZ)

    /// Right-hand rotation by `degrees` about the unit vector `axis` (Rodrigues' formula).
    public init(axis k: Vector3, degrees: Double) {
        let (s, c) = Trig.sinCos(Trig.radians(degrees))
        let t = 1 - c
        row0 = Vector3(c + k.x * k.x * t, k.x * k.y * t - k.z * s, k.x * k.z * t + k.y * s)
        row1 = Vector3(k.y * k.x * t + k.z * s, c + k.y * k.y * t, k.y * k.z * t - k.x * s)
        row2 = Vector3(k.z * k.x * t - k.y * s, k.z * k.y * t + k.x * s, c + k.z * k.z * t)
    }

    public init(row0: Vector3, row1: Vector3, row2: Vector3) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    @inlinable public func apply(_ v: Vector3) -> Vector3 {
        Vector3(row0.dot(v), row1.dot(v), row2.dot(v))
    }

    /// The inverse rotation (the transpose).
    public var inverse: Rotation3 {
        Rotation3(
            row0: Vector3(row0.x, row1.x, row2.x),
            row1: Vector3(row0.y, row1.y, row2.y),
            row2: Vector3(row0.z, row1.z, row2.z))
    }

    public static func * (a: Rotation3, b: Rotation3) -> Rotation3 {
        let columns = b.inverse  // rows of the transpose are b's columns
        return Rotation3(
            row0: Vector3(a.row0.dot(columns.row0), a.row0.dot(columns.row1), a.row0.dot(columns.row2)),
            row1: Vector3(a.row1.dot(columns.row0), a.row1.dot(columns.row1), a.row1.dot(columns.row2)),
            row2: Vector3(a.row2.dot(columns.row0), a.row2.dot(columns.row1), a.row2.dot(columns.row2)))
    }
}
