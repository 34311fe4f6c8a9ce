import FoldcamCore

/// `foldcamctl rig render`: one SVG page with the rig drawn from two opposite sides (so every
/// face and mount shows once), then a legend of what the engine decides at these angles.
public enum RigRenderer {
    static let pageWidth = 1000.0
    static let margin = 20.0
    static let viewSize = (width: 470.0, height: 400.0)
    static let viewTop = 78.0
    /// Room kept free around the drawing inside each view for labels.
    static let labelPadding = (x: 60.0, y: 48.0)
    static let lineHeight = 19.0

    /// The picture at `angles` (one per hinge, each within its range; see `HingeSettings`).
    public static func svg(rig: Rig, angles: [Double]) -> String {
        let legend = RigLegend(rig: rig, angles: angles)
        let scene = RigScene(rig: rig, angles: legend.angles)
        let front = ViewProjection.choose(for: scene.panels.map { $0.normal(.a) })
        let views = [front, front.opposite]

        // One scale for both views, so sizes compare.
        let boxes = views.map { bounds(scene.extent.map($0.plane)) }
        let availableWidth = viewSize.width - 2 * labelPadding.x
        let availableHeight = viewSize.height - 2 * labelPadding.y
        let scale = boxes.map { box in
            min(availableWidth / max(box.maxX - box.minX, 1e-6), availableHeight / max(box.maxY - box.minY, 1e-6))
        }.min() ?? 1

        let textLines = wrapped(legend.lines, width: 125)
        let legendTop = viewTop + viewSize.height + 34
        let keyTop = legendTop + Double(textLines.count) * lineHeight + 14
        var svg = SVGDocument(width: pageWidth, height: keyTop + 44)
        svg.raw(Palette.markerDefinitions)
        svg.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "#ffffff")])
        svg.text("\(rig.id) — \(rig.name)", at: .init(x: margin, y: 32),
                 [("font-size", "18"), ("font-weight", "bold"), ("fill", Palette.text)])
        let angleText = rig.hinges.indices.map { "\(rig.hinges[$0].id) \(NumberText.degrees(legend.angles[$0]))" }
        let summary = (angleText.isEmpty ? ["no hinges"] : angleText) + ["posture \(legend.posture)", "viewed display \(legend.viewedDisplay)"]
        svg.text(summary.joined(separator: " · "), at: .init(x: margin, y: 56), [("font-size", "14"), ("fill", Palette.text)])

        for (index, view) in views.enumerated() {
            let left = margin + Double(index) * (viewSize.width + 20)
            let box = boxes[index]
            svg.open("g", [("class", "view"), ("data-view", index == 0 ? "front" : "opposite")])
            svg.element("rect", [("x", SVGDocument.number(left)), ("y", SVGDocument.number(viewTop)),
                                 ("width", SVGDocument.number(viewSize.width)), ("height", SVGDocument.number(viewSize.height)),
                                 ("fill", "#fafafa"), ("stroke", Palette.frame), ("rx", "6")])
            svg.text(view.caption, at: .init(x: left + 10, y: viewTop + 18), [("font-size", "12"), ("fill", "#555555")])
            // Centre the drawing's bounding box in the view (the caption row shifts it down a little).
            let centreX = left + viewSize.width / 2 - scale * (box.minX + box.maxX) / 2
            let centreY = viewTop + 10 + viewSize.height / 2 + scale * (box.minY + box.maxY) / 2
            let drawing = RigDrawing(rig: rig, scene: scene, legend: legend, view: view, scale: scale,
                                     origin: .init(x: centreX, y: centreY), textBounds: (left + 6, left + viewSize.width - 6))
            drawing.draw(into: &svg)
            svg.close("g")
        }

        svg.open("g", [("class", "legend"), ("font-size", "13"), ("fill", Palette.text)])
        for (index, line) in textLines.enumerated() {
            var attributes: [(String, String)] = []
            if line.hasPrefix("warning:") { attributes = [("fill", "#b00020"), ("font-weight", "bold")] }
            svg.text(line, at: .init(x: margin, y: legendTop + Double(index) * lineHeight), attributes)
        }
        svg.close("g")
        drawKey(at: keyTop, into: &svg)
        return svg.text
    }

    /// What the colours and marks mean.
    private static func drawKey(at top: Double, into svg: inout SVGDocument) {
        svg.open("g", [("class", "key"), ("font-size", "12"), ("fill", Palette.text)])
        var x = margin
        let y = top + 12
        func swatch(_ fill: String, _ text: String, dashed: Bool = false) {
            var attributes = [("x", SVGDocument.number(x)), ("y", SVGDocument.number(y - 11)), ("width", "22"), ("height", "14"),
                              ("fill", fill), ("stroke", dashed ? Palette.hidden : Palette.outline)]
            if dashed { attributes.append(("stroke-dasharray", "4 3")) }
            svg.element("rect", attributes)
            svg.text(text, at: .init(x: x + 28, y: y), [])
            x += 28 + Double(text.count) * 6.6 + 18
        }
        swatch(Palette.faceA, "face A")
        swatch(Palette.faceB, "face B")
        swatch(Palette.screenA, "display on A")
        swatch(Palette.screenB, "display on B")
        swatch("none", "on the far face", dashed: true)
        svg.circle(at: .init(x: x + 5, y: y - 4), radius: 4.5, [("fill", Palette.camera)])
        svg.line(from: .init(x: x + 5, y: y - 4), to: .init(x: x + 30, y: y - 4),
                 [("stroke", Palette.camera), ("stroke-width", "2"), ("marker-end", "url(#arrow-camera)")])
        svg.text("camera, arrow = optical axis", at: .init(x: x + 38, y: y), [])
        let secondRow = y + 20
        svg.line(from: .init(x: margin, y: secondRow - 4), to: .init(x: margin + 40, y: secondRow - 4),
                 [("stroke", Palette.hingeAxis), ("stroke-width", "2.5"), ("stroke-dasharray", "10 3 2 3"), ("marker-end", "url(#arrow-axis)")])
        svg.text("hinge axis, arrow = +axis (right-hand rule: closing turns the child about it, over the parent's A face)",
                 at: .init(x: margin + 48, y: secondRow), [])
        svg.close("g")
    }

    private static func bounds(_ points: [(x: Double, y: Double)]) -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        var box = (minX: Double.infinity, maxX: -Double.infinity, minY: Double.infinity, maxY: -Double.infinity)
        for point in points {
            box.minX = min(box.minX, point.x)
            box.maxX = max(box.maxX, point.x)
            box.minY = min(box.minY, point.y)
            box.maxY = max(box.maxY, point.y)
        }
        return box.minX.isFinite ? box : (0, 1, 0, 1)
    }

    /// Breaks long legend lines at spaces (SVG text does not wrap by itself).
    static func wrapped(_ lines: [String], width: Int) -> [String] {
        lines.flatMap { line -> [String] in
            var result: [String] = []
            var current = ""
            for word in line.split(separator: " ", omittingEmptySubsequences: false) {
                if !current.isEmpty, current.count + 1 + word.count > width {
                    result.append(current)
                    current = "    " + word
                } else {
                    current += (current.isEmpty ? "" : " ") + word
                }
            }
            result.append(current)
            return result
        }
    }
}
