/// What foldcam recommends for one display's output: the screen rotation that makes its content
/// upright for its viewer, and whether it should be on. A recommendation only: the compositor
/// applies it (`foldcamctl follow`), and what it then reports comes back as `screenRotation`.
public struct ScreenAdvice: Sendable, Equatable {
    public enum OffReason: String, Sendable, Equatable {
        /// A face of the display lies against another face (a closed lid, a keyboard on it).
        case covered
        /// A display spanning several faces folded onto itself.
        case foldedShut
    }

    public enum NoRotationReason: String, Sendable, Equatable {
        /// No gravity known yet (no accelerometer, no `gravity` input).
        case noGravity
        /// Gravity along the display's normal (lying flat) since the start: up cannot be told.
        case gravityAlongNormal
    }

    /// Clockwise degrees, as the viewer sees it, from the anchor panel's +y to the content's
    /// up: what `screenRotation` becomes once the compositor applied it. Nil until known.
    public var rotation: Int?
    /// The rotation relative to the panel's native top (rotation − mount rotation): the
    /// clockwise transform to ask the compositor for.
    public var transform: Int?
    public var noRotationReason: NoRotationReason?
    public var offReason: OffReason?

    public var on: Bool { offReason == nil }

    public init(rotation: Int?, transform: Int?, noRotationReason: NoRotationReason?, offReason: OffReason?) {
        self.rotation = rotation
        self.transform = transform
        self.noRotationReason = noRotationReason
        self.offReason = offReason
    }
}

/// Computes `ScreenAdvice` from gravity, the pose, the display's mount rotation and its
/// occlusion. Pure; the only memory is the previous advice, passed in (hysteresis).
public enum ScreenAdvisor {
    /// A rotation is kept until world up is this many degrees past the 45° halfway line: from
    /// 0 the advice turns to 90 above 55° and back to 0 below 35°.
    public static let hysteresis = 10.0

    public static func advise(
        _ display: Display, occluded: Bool, mountRotation: Int, gravity: Vector3?, pose: RigPose,
        minimumProjection: Double, previous: ScreenAdvice?
    ) -> ScreenAdvice {
        let offReason: ScreenAdvice.OffReason? = occluded ? (spansFoldedShut(display, pose: pose) ? .foldedShut : .covered) : nil
        let before = previous?.rotation
        guard let gravity else {
            return advice(rotation: before, mountRotation: mountRotation, missing: .noGravity, offReason: offReason)
        }
        guard let angle = upAngle(display, worldUp: -gravity, pose: pose, minimumProjection: minimumProjection) else {
            return advice(rotation: before, mountRotation: mountRotation, missing: .gravityAlongNormal, offReason: offReason)
        }
        return advice(rotation: rotation(forUpAngle: angle, previous: before), mountRotation: mountRotation, missing: nil, offReason: offReason)
    }

    /// Where world up lies on the display, clockwise from the anchor panel's +y as the viewer
    /// sees it, in degrees [0, 360); nil when it is too close to the display's normal.
    public static func upAngle(_ display: Display, worldUp: Vector3, pose: RigPose, minimumProjection: Double) -> Double? {
        let panelUp = pose.up(display.anchor)
        let normal = pose.orientations[display.anchor].apply(display.anchorSide.normal)
        let viewerRight = (-normal).cross(panelUp)
        let x = worldUp.dot(viewerRight)
        let y = worldUp.dot(panelUp)
        let across = (x * x + y * y).squareRoot()
        guard across > 1e-9, across >= minimumProjection * worldUp.length else { return nil }
        let degrees = Trig.degrees(Trig.atan2(x, y))
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The quarter turn nearest `angle`, except that `previous` holds while the angle is within
    /// 45° + hysteresis of it.
    public static func rotation(forUpAngle angle: Double, previous: Int?) -> Int {
        if let previous, distance(angle, Double(previous)) <= 45 + hysteresis { return previous }
        let nearest = Int((angle / 90).rounded()) * 90
        return nearest % 360
    }

    /// Angular distance on the circle, in [0, 180].
    static func distance(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return d > 180 ? 360 - d : d
    }

    /// A display over several faces with every face covered: it folded onto itself.
    static func spansFoldedShut(_ display: Display, pose: RigPose) -> Bool {
        display.faces.count > 1 && display.faces.allSatisfy { pose.isCovered($0) }
    }

    private static func advice(
        rotation: Int?, mountRotation: Int, missing: ScreenAdvice.NoRotationReason?, offReason: ScreenAdvice.OffReason?
    ) -> ScreenAdvice {
        let transform = rotation.map { ((($0 - mountRotation) % 360) + 360) % 360 }
        return ScreenAdvice(rotation: rotation, transform: transform, noRotationReason: rotation == nil ? missing : nil, offReason: offReason)
    }
}
