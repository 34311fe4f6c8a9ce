import FoldcamCore

/// Draws one view of a posed rig into an SVG document, farthest panel first (painter's order)
/// so nearer panels cover farther ones. Each panel carries its mounts: those on the face the
/// eye sees are drawn on top of it; those on the far face are drawn under it, dashed, so they
/// show only where they stick out past the panel. Labels go on last, so a label running past
/// its panel is not cut, and are left out where a nearer panel covers what they name.
struct RigDrawing {
    let rig: Rig
    let scene: RigScene
    let legend: RigLegend
    let view: ViewProjection
    /// Pixels per millimetre, and where the view-plane origin lands on the page.
    let scale: Double
    let origin: SVGDocument.Point
    /// Left and right page limits of this view; labels are kept inside them.
    let textBounds: (left: Double, right: Double)

    /// A label waiting for the painting to finish; `layer` is its panel's place in the order.
    private struct Label {
        var text: String
        var target: SVGDocument.Point
        var at: SVGDocument.Point
        var layer: Int
        var size: Double
        var bold = false
        var color = Palette.text
        var anchor = "middle"
        var halo = "#ffffff"
        var attributes: [(String, String)] = []
    }

    func pixel(_ point: Vector3) -> SVGDocument.Point {
        let (x, y) = view.plane(point)
        return SVGDocument.Point(x: origin.x + scale * x, y: origin.y - scale * y)
    }

    func draw(into svg: inout SVGDocument) {
        let order = scene.panels.sorted { view.depth($0.centre) < view.depth($1.centre) }
        var labels: [Label] = []
        for (layer, shape) in order.enumerated() {
            let seen: FaceSide = view.sees(shape.normal(.a)) ? .a : .b
            let far: FaceSide = seen == .a ? .b : .a
            let panelID = rig.panels[shape.index].id
            svg.open("g", [("data-panel", panelID)])
            drawMounts(panel: shape.index, side: far, visible: false, layer: layer, into: &svg, labels: &labels)
            svg.polygon(shape.corners.map(pixel), [
                ("data-face", seen.rawValue), ("fill", Palette.face(seen == .a)),
                ("stroke", Palette.outline), ("stroke-width", "1.5"), ("stroke-linejoin", "round"),
            ])
            drawMounts(panel: shape.index, side: seen, visible: true, layer: layer, into: &svg, labels: &labels)
            let spot = pixel(shape.point(0, RigScene.faceLabelRow * shape.height))
            labels.append(Label(text: "\(panelID).\(seen.rawValue)", target: spot, at: spot, layer: layer, size: 13, bold: true,
                                attributes: [("data-face-label", "\(panelID).\(seen.rawValue)")]))
            svg.close("g")
        }
        // Hinge axes go over the panels: checking their sign is what the picture is for.
        for mark in scene.hinges { drawHinge(mark, layer: order.count - 1, into: &svg, labels: &labels) }
        let outlines = order.map { $0.corners.map(pixel) }
        svg.open("g", [("class", "labels")])
        for label in labels where !outlines[(label.layer + 1)...].contains(where: { Self.contains($0, label.target) }) {
            write(label, into: &svg)
        }
        svg.close("g")
    }

    private func drawMounts(panel: Int, side: FaceSide, visible: Bool, layer: Int, into svg: inout SVGDocument, labels: inout [Label]) {
        for mark in scene.displays where mark.face.panel == panel && mark.face.side == side {
            drawDisplay(mark, visible: visible, layer: layer, into: &svg, labels: &labels)
        }
        for mark in scene.cameras where mark.face.panel == panel && mark.face.side == side {
            drawCamera(mark, visible: visible, layer: layer, into: &svg, labels: &labels)
        }
    }

    private func drawDisplay(_ mark: RigScene.DisplayMark, visible: Bool, layer: Int, into svg: inout SVGDocument, labels: inout [Label]) {
        let id = rig.displays[mark.display].id
        let occluded = legend.displays[mark.display].occluded
        let corners = mark.corners.map(pixel)
        guard visible else {
            svg.polygon(corners, [("data-display", id), ("fill", "none"), ("stroke", Palette.hidden), ("stroke-dasharray", "4 3")])
            return
        }
        let fill = occluded ? Palette.screenOccluded : Palette.screen(mark.face.side == .a)
        svg.polygon(corners, [("data-display", id), ("fill", fill), ("stroke", Palette.outline), ("stroke-width", "1")])
        // A halo in the screen's own colour keeps white text legible where it runs past the screen.
        let centre = pixel(mark.centre)
        labels.append(Label(text: "display \(id)", target: centre, at: .init(x: centre.x, y: centre.y + 4), layer: layer,
                            size: 12, bold: true, color: "#ffffff", halo: fill))
        if occluded {
            labels.append(Label(text: "(occluded)", target: centre, at: .init(x: centre.x, y: centre.y + 18), layer: layer,
                                size: 11, color: "#ffffff", halo: fill))
        }
    }

    private func drawCamera(_ mark: RigScene.CameraMark, visible: Bool, layer: Int, into svg: inout SVGDocument, labels: inout [Label]) {
        let id = rig.cameras[mark.index].id
        let base = pixel(mark.position)
        let tip = pixel(mark.tip)
        guard visible else {
            svg.line(from: base, to: tip, [("data-camera", id), ("stroke", Palette.hidden), ("stroke-width", "1.5"),
                                           ("stroke-dasharray", "4 3"), ("marker-end", "url(#arrow-hidden)")])
            return
        }
        let reason = legend.unavailableReasons[mark.index]
        let color = reason == nil ? Palette.camera : Palette.cameraUnavailable
        svg.open("g", [("data-camera", id)])
        svg.line(from: base, to: tip, [("stroke", color), ("stroke-width", "2"),
                                       ("marker-end", reason == nil ? "url(#arrow-camera)" : "url(#arrow-hidden)")])
        svg.circle(at: base, radius: 4.5, [("fill", color), ("stroke", "#ffffff"), ("stroke-width", "1.5")])
        svg.close("g")
        // A camera folded against another face cannot be seen: the legend names it instead.
        guard !mark.covered else { return }
        // On the side away from the arrow, so the two do not cross.
        let leftward = tip.x < base.x
        let text = reason.map { "\(id) (\($0.rawValue))" } ?? id
        labels.append(Label(text: text, target: base, at: .init(x: base.x + (leftward ? 8 : -8), y: base.y + 4), layer: layer,
                            size: 11, color: color, anchor: leftward ? "start" : "end", attributes: [("data-camera-label", id)]))
    }

    private func drawHinge(_ mark: RigScene.HingeMark, layer: Int, into svg: inout SVGDocument, labels: inout [Label]) {
        let id = rig.hinges[mark.index].id
        let from = pixel(mark.pivot - mark.halfLength * mark.axis)
        let to = pixel(mark.pivot + mark.halfLength * mark.axis)
        svg.open("g", [("data-hinge", id)])
        svg.line(from: from, to: to, [("stroke", Palette.hingeAxis), ("stroke-width", "2.5"),
                                      ("stroke-dasharray", "10 3 2 3"), ("marker-end", "url(#arrow-axis)")])
        let dx = to.x - from.x
        let dy = to.y - from.y
        let length = max(1, (dx * dx + dy * dy).squareRoot())
        let at = SVGDocument.Point(x: to.x + 10 * dx / length, y: to.y + 10 * dy / length + 4)
        svg.close("g")
        labels.append(Label(text: "\(id) \(NumberText.degrees(legend.angles[mark.index]))", target: at, at: at, layer: layer,
                            size: 12, bold: true, color: Palette.hingeAxis, anchor: dx >= 0 ? "start" : "end",
                            attributes: [("data-hinge-label", id)]))
    }

    /// Text with a halo so it stays legible over panels and lines, kept inside the view from a
    /// rough width estimate (there are no font metrics here).
    private func write(_ label: Label, into svg: inout SVGDocument) {
        let width = Double(label.text.count) * label.size * (label.bold ? 0.64 : 0.58)
        let start = label.anchor == "start" ? label.at.x : label.anchor == "end" ? label.at.x - width : label.at.x - width / 2
        let shift = max(0, textBounds.left - start) - max(0, start + width - textBounds.right)
        var attributes = [("font-size", SVGDocument.number(label.size)), ("text-anchor", label.anchor), ("fill", label.color)]
        if label.bold { attributes.append(("font-weight", "bold")) }
        attributes += [("stroke", label.halo), ("stroke-width", "3"), ("stroke-opacity", "0.85"), ("paint-order", "stroke"), ("stroke-linejoin", "round")]
        svg.text(label.text, at: .init(x: label.at.x + shift, y: label.at.y), label.attributes + attributes)
    }

    /// Whether a point lies inside a convex polygon (a projected panel is a parallelogram).
    static func contains(_ polygon: [SVGDocument.Point], _ point: SVGDocument.Point) -> Bool {
        var sign = 0.0
        for index in polygon.indices {
            let a = polygon[index]
            let b = polygon[(index + 1) % polygon.count]
            let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
            if abs(cross) < 1e-9 { continue }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return sign != 0
    }
}
