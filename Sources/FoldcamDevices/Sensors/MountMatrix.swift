import FoldcamCore

/// An accelerometer's mount matrix: turns the chip's axes into the panel's (x right, y up, z out
/// of the display), as udev's `ACCEL_MOUNT_MATRIX` (hwdb) and the kernel's `mount_matrix`
/// attributes give it: "x1, y1, z1; x2, y2, z2; x3, y3, z3", rows applied to (x, y, z).
public struct MountMatrix: Sendable, Equatable {
    public var rows: [Vector3]

    public static let identity = MountMatrix(rows: [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)])

    public init(rows: [Vector3]) {
        self.rows = rows
    }

    /// nil when the text is not three rows of three finite numbers.
    public init?(parsing text: String) {
        let rowTexts = text.split(separator: ";")
        guard rowTexts.count == 3 else { return nil }
        var rows: [Vector3] = []
        for rowText in rowTexts {
            let numbers = rowText.split(separator: ",").compactMap { IIOValue.parse(String($0)) }
            guard numbers.count == 3, rowText.split(separator: ",").count == 3 else { return nil }
            rows.append(Vector3(numbers[0], numbers[1], numbers[2]))
        }
        self.rows = rows
    }

    public func apply(_ vector: Vector3) -> Vector3 {
        Vector3(rows[0].dot(vector), rows[1].dot(vector), rows[2].dot(vector))
    }
}
