/// A rectangle on a display in the panel's own coordinates (its native scan-out, before any
/// compositor transform): fractions of the display's width and height from its top-left corner.
public struct DisplayRect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The same area in the coordinates of a panel mounted with its top turned `degrees`
    /// clockwise from the anchor's +y (a multiple of 90; `mountRotation`): each quarter turn
    /// takes the point (x, y) to (y, 1 − x).
    public func turned(clockwise degrees: Int) -> DisplayRect {
        var rect = self
        for _ in 0..<((((degrees / 90) % 4) + 4) % 4) {
            rect = DisplayRect(x: rect.y, y: 1 - (rect.x + rect.width), width: rect.height, height: rect.width)
        }
        return rect
    }
}

/// Where each face of a display spanning several lies on it: the rig laid flat (every hinge at
/// 180°), the faces' panels side by side as `RigPose.panelCentres` places them, seen from the
/// anchor's side with the anchor panel's +y up. Panel sizes (`size`, millimetres) give the
/// proportions, so they must be the real ones for a rectangle to be right.
public enum DisplayRegions {
    /// Per face of the display, in its `faces` order; mount rotation 0.
    public static func faceRects(_ display: Display, rig: Rig) -> [DisplayRect] {
        let flat = [Double](repeating: 180, count: rig.hinges.count)
        let pose = RigPose(rig: rig, angles: flat)
        let centres = pose.panelCentres(rig: rig, angles: flat)
        // Into the anchor's frame, seen from its side: a B face's viewer has +x on the left.
        let toAnchor = pose.orientations[display.anchor].inverse
        let mirror = display.anchorSide == .b ? -1.0 : 1.0
        let boxes = display.faces.map { face -> (minX: Double, maxX: Double, minY: Double, maxY: Double) in
            let panel = rig.panels[face.panel]
            let centre = toAnchor.apply(centres[face.panel] - centres[display.anchor])
            let across = toAnchor.apply(pose.orientations[face.panel].apply(Vector3(panel.width / 2, 0, 0)))
            let up = toAnchor.apply(pose.orientations[face.panel].apply(Vector3(0, panel.height / 2, 0)))
            let halfX = abs(across.x) + abs(up.x)
            let halfY = abs(across.y) + abs(up.y)
            let x = centre.x * mirror
            return (x - halfX, x + halfX, centre.y - halfY, centre.y + halfY)
        }
        guard let minX = boxes.map(\.minX).min(), let maxX = boxes.map(\.maxX).max(),
              let minY = boxes.map(\.minY).min(), let maxY = boxes.map(\.maxY).max(),
              maxX - minX > 0, maxY - minY > 0 else { return [] }
        let width = maxX - minX
        let height = maxY - minY
        return boxes.map { box in
            DisplayRect(x: (box.minX - minX) / width, y: (maxY - box.maxY) / height,
                        width: (box.maxX - box.minX) / width, height: (box.maxY - box.minY) / height)
        }
    }
}
