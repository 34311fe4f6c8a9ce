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

    /// What the loopback does to a frame, as a transform: turned `captureRotation` degrees
    /// clockwise, then the upright picture mirrored left to right when `mirrored`
    /// (`FrameTransform`). SPA flips first, and a flip reverses the turn that follows it, so a
    /// mirrored turn is the flip followed by the same angle counter-clockwise.
    public init(captureRotation: Int, mirrored: Bool) {
        self.init(clockwise: mirrored ? -captureRotation : captureRotation, mirrored: mirrored)
    }

    public static let none = VideoTransform(rawValue: 0)

    public var mirrored: Bool { rawValue >= 4 }
    /// Quarter turns counter-clockwise, applied after the flip.
    public var counterClockwiseQuarters: Int { Int(rawValue % 4) }

    /// `self` applied after `first`: a camera node's residual transform (what its pipeline could
    /// not apply, in its buffers' meta) followed by foldcam's own. With F the flip and R a
    /// quarter turn, R^b F^g · R^a F^f = R^(b ± a) F^(g xor f), minus when g flips.
    public func after(_ first: VideoTransform) -> VideoTransform {
        let quarters = counterClockwiseQuarters + (mirrored ? -first.counterClockwiseQuarters : first.counterClockwiseQuarters)
        return VideoTransform(rawValue: UInt32((quarters % 4 + 4) % 4) + (mirrored != first.mirrored ? 4 : 0))
    }

    /// What to put on a buffer for each residual the input's buffer says (index = its rawValue).
    public var table: [UInt32] { (0..<8).map { after(VideoTransform(rawValue: UInt32($0))).rawValue } }

    public var description: String {
        let turn = ["none", "90° counter-clockwise", "180°", "270° counter-clockwise"][Int(rawValue % 4)]
        return rawValue >= 4 ? "flipped, \(turn)" : turn
    }
}
