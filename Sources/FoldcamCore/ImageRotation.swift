/// Rotation decisions: which clockwise turn of a camera's raw frame puts a target "up" at the top.
public enum ImageRotation {
    /// The camera's raw image axes in the rig frame: optical axis a, raw up u, raw right r.
    public struct CameraBasis: Sendable {
        public var axis: Vector3
        public var up: Vector3
        public var right: Vector3
    }

    /// u is the panel's +y turned so that turning the raw frame clockwise by `sensorRotation`
    /// makes panel +y the top; r = a × u.
    public static func basis(of camera: Camera, pose: RigPose) -> CameraBasis {
        let axis = pose.normal(camera.face)
        let panelUp = pose.up(camera.face.panel)
        let faceRight = axis.cross(panelUp)
        let (s, c) = quarterTurn(camera.sensorRotation)
        let up = c * panelUp + s * faceRight
        let right = (-s) * panelUp + c * faceRight
        return CameraBasis(axis: axis, up: up, right: right)
    }

    /// A display's content up: its anchor panel's +y turned clockwise, as its viewer sees it,
    /// by the screen rotation.
    public static func contentUp(of display: Display, screenRotation: Int, pose: RigPose) -> Vector3 {
        let panelUp = pose.up(display.anchor)
        let normal = pose.orientations[display.anchor].apply(display.anchorSide.normal)
        let viewerRight = (-normal).cross(panelUp)
        let (s, c) = quarterTurn(screenRotation)
        return c * panelUp + s * viewerRight
    }

    /// The clockwise rotation (0, 90, 180, 270) that brings `target` to the top of the raw
    /// frame, or nil when the target is too close to the optical axis to tell.
    public static func rotation(bringing target: Vector3, toTopOf basis: CameraBasis, minimumProjection: Double) -> Int? {
        let tx = target.dot(basis.right)
        let ty = target.dot(basis.up)
        let across = (tx * tx + ty * ty).squareRoot()
        guard across > 1e-9, across >= minimumProjection * target.length else { return nil }
        // β: where the target shows, clockwise from the raw top, to the nearest quarter turn.
        let beta: Int
        if abs(ty) >= abs(tx) {
            beta = ty > 0 ? 0 : 180
        } else {
            beta = tx > 0 ? 90 : 270
        }
        return (360 - beta) % 360
    }

    /// Exact sine and cosine of a multiple of 90°.
    static func quarterTurn(_ degrees: Int) -> (sin: Double, cos: Double) {
        switch ((degrees % 360) + 360) % 360 {
        case 90: return (1, 0)
        case 180: return (0, -1)
        case 270: return (-1, 0)
        default: return (0, 1)
        }
    }
}
