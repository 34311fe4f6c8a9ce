/// A `SPA_META_VideoTransform` value: how a consumer turns each buffer. SPA counts
/// counter-clockwise and flips before it turns; foldcam's rotations are clockwise.
public struct VideoTransform: Sendable, Equatable, CustomStringConvertible {
    /// `enum spa_meta_videotransform_value`: 0 None, 1...3 quarter turns counter-clockwise,
    /// 4 Flipped, 5...7 flipped then turned.
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Turned `clockwise` degrees (a multiple of 90), mirrored first when `mirrored`.
    public init(clockwise: Int, mirrored: Bool = false) {
        let quarters = ((clockwise / 90) % 4 + 4) % 4
        rawValue = UInt32((4 - quarters) % 4) + (mirrored ? 4 : 0)
    }

    public static let none = VideoTransform(rawValue: 0)

    public var description: String {
        let turn = ["none", "90° counter-clockwise", "180°", "270° counter-clockwise"][Int(rawValue % 4)]
        return rawValue >= 4 ? "flipped, \(turn)" : turn
    }
}
