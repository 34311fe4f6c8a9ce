import FoldcamCore

/// A parallel oblique projection. The eye looks at the rig from `toward` (unit vector from the
/// rig to the eye) and rig +z stays upright on the page, so a rig whose root lies on a desk
/// (a laptop base, a phone on a table) is seen as a person at that desk sees it.
struct ViewProjection {
    let toward: Vector3
    let right: Vector3
    let up: Vector3
    /// How a reader should picture the eye's position.
    let caption: String

    /// Azimuth is measured from the rig's −y side toward −x; elevation above the root's A face.
    init(azimuth: Double, elevation: Double) {
        let (sinA, cosA) = Trig.sinCos(Trig.radians(azimuth))
        let (sinE, cosE) = Trig.sinCos(Trig.radians(elevation))
        let toward = Vector3(-sinA * cosE, -cosA * cosE, sinE)
        let right = Vector3.unitZ.cross(toward).normalized ?? .unitX
        let side = azimuth >= 0 ? "left" : "right"
        self.init(toward: toward, right: right, up: toward.cross(right),
                  caption: "seen from the front-\(side), above the root's A face")
    }

    private init(toward: Vector3, right: Vector3, up: Vector3, caption: String) {
        self.toward = toward
        self.right = right
        self.up = up
        self.caption = caption
    }

    /// The same view from the other side, so every face hidden in one view shows in the other.
    var opposite: ViewProjection {
        let side = toward.x <= 0 ? "right" : "left"
        return ViewProjection(toward: -toward, right: -right, up: up,
                              caption: "seen from the opposite side (behind-\(side), below)")
    }

    /// The first of a few fixed views that sees no panel nearly edge-on (a panel seen edge-on
    /// is a line, hiding its mounts); the least edge-on one when none qualifies. Fixed
    /// candidates keep pictures of one rig comparable across angles.
    static func choose(for normals: [Vector3]) -> ViewProjection {
        let candidates = [(30.0, 40.0), (-30, 40), (50, 30), (-50, 30), (30, 65), (-30, 65)]
            .map { ViewProjection(azimuth: $0.0, elevation: $0.1) }
        func clearance(_ view: ViewProjection) -> Double {
            normals.map { abs($0.dot(view.toward)) }.min() ?? 1
        }
        if let good = candidates.first(where: { clearance($0) >= 0.3 }) { return good }
        return candidates.max { clearance($0) < clearance($1) } ?? candidates[0]
    }

    /// Position on the view plane (millimetres, y up).
    func plane(_ point: Vector3) -> (x: Double, y: Double) { (point.dot(right), point.dot(up)) }

    /// Larger is nearer the eye.
    func depth(_ point: Vector3) -> Double { point.dot(toward) }

    func sees(_ normal: Vector3) -> Bool { normal.dot(toward) > 0 }
}
