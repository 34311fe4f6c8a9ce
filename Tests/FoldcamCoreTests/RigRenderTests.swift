import FoldcamCore
@testable import FoldcamRender
import Testing

/// `foldcamctl rig render`: the picture must be well-formed SVG, name every part of the rig,
/// agree with the engine's decisions, and draw the geometry the kinematics give.
@Suite struct RigRenderTests {
    private static func rig(_ id: String) throws -> Rig {
        guard let rig = try RigPresets.rig(id) else { throw RenderTestFailure("no preset \(id)") }
        return rig
    }

    private static func render(_ id: String, _ settings: [String] = []) throws -> String {
        let rig = try rig(id)
        return RigRenderer.svg(rig: rig, angles: try HingeSettings.angles(for: rig, settings: settings))
    }

    /// Tag names in document order with nesting checked; nil when tags do not balance.
    private static func balancedTags(_ xml: String) -> [String]? {
        var stack: [String] = []
        var opened: [String] = []
        var rest = xml[...]
        while let start = rest.firstIndex(of: "<") {
            guard let end = rest[start...].firstIndex(of: ">") else { return nil }
            let tag = rest[rest.index(after: start)..<end]
            rest = rest[rest.index(after: end)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            if tag.hasPrefix("/") {
                guard stack.popLast() == String(tag.dropFirst()) else { return nil }
                continue
            }
            let name = String(tag.prefix { $0 != " " && $0 != "\n" && $0 != "/" })
            if stack.isEmpty && !opened.isEmpty { return nil }  // a second root element
            opened.append(name)
            if !tag.hasSuffix("/") { stack.append(name) }
        }
        return stack.isEmpty ? opened : nil
    }

    /// The order in which `data-panel` groups appear inside one view's group.
    private static func panelOrder(_ svg: String, view: String) -> [String] {
        guard let start = svg.firstRange(of: "data-view=\"\(view)\"") else { return [] }
        let section = svg[start.upperBound...]
        let end = section.firstRange(of: "class=\"view\"") ?? section.firstRange(of: "class=\"legend\"")
        let text = end.map { section[..<$0.lowerBound] } ?? section
        return text.split(separator: "<g data-panel=\"", omittingEmptySubsequences: false).dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test(arguments: RigPresets.ids)
    func everyPresetRendersWellFormedSVGNamingEveryPart(id: String) throws {
        let rig = try Self.rig(id)
        let svg = try Self.render(id)
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "))
        #expect(svg.hasSuffix("</svg>\n"))
        let tags = try #require(Self.balancedTags(svg), "tags do not nest in one root")
        #expect(tags.first == "svg")
        #expect(!svg.contains("nan") && !svg.contains("inf"))
        for panel in rig.panels { #expect(svg.contains("data-panel=\"\(panel.id)\""), "panel \(panel.id)") }
        for camera in rig.cameras { #expect(svg.contains("data-camera=\"\(camera.id)\""), "camera \(camera.id)") }
        for display in rig.displays { #expect(svg.contains("data-display=\"\(display.id)\""), "display \(display.id)") }
        for hinge in rig.hinges { #expect(svg.contains("data-hinge=\"\(hinge.id)\""), "hinge \(hinge.id)") }
        // Two views from opposite sides: every panel in each.
        #expect(Self.panelOrder(svg, view: "front").sorted() == rig.panels.map(\.id).sorted())
        #expect(Self.panelOrder(svg, view: "opposite").sorted() == rig.panels.map(\.id).sorted())
    }

    @Test func duoOpenLegendListsTheEnginesForwardCameras() throws {
        let rig = try Self.rig("duo")
        let legend = RigLegend(rig: rig, angles: [180])
        #expect(legend.posture == "open")
        #expect(legend.displays[0] == .init(id: "inner", occluded: false, forward: ["inner-front"], backward: ["outer-front", "back"]))
        #expect(legend.displays[1] == .init(id: "outer", occluded: false, forward: ["outer-front", "back"], backward: ["inner-front"]))
        let svg = try Self.render("duo", ["fold=180"])
        #expect(svg.contains(">inner: forward [inner-front], backward [outer-front, back]<"))
        #expect(svg.contains(">outer: forward [outer-front, back], backward [inner-front]<"))
        #expect(svg.contains(">virtual camera source: inner-front<"))
    }

    @Test func duoClosedLegendShowsInnerOccluded() throws {
        let legend = RigLegend(rig: try Self.rig("duo"), angles: [0])
        #expect(legend.posture == "closed")
        #expect(legend.viewedDisplay == "outer")
        #expect(legend.displays[0].occluded)
        #expect(legend.displays[0].forward.isEmpty)
        #expect(legend.displays[1].forward == ["outer-front"])
        #expect(legend.displays[1].backward == ["back"])
        #expect(legend.unavailable == ["inner-front (occluded)"])
        let svg = try Self.render("duo", ["fold=0"])
        #expect(svg.contains(">inner: occluded (folded shut)<"))
        #expect(svg.contains(">outer: forward [outer-front], backward [back]<"))
        #expect(svg.contains(">unavailable cameras: inner-front (occluded)<"))
        #expect(svg.contains(">fold 0° · posture closed · viewed display outer<"))
    }

    @Test func unsetHingesKeepTheirInitialAngle() throws {
        let trifold = try Self.rig("trifold")
        #expect(try HingeSettings.angles(for: trifold, settings: ["right-fold=90"]) == [180, 90])
        #expect(try HingeSettings.angles(for: trifold, settings: []) == trifold.hinges.map(\.initial))
        #expect(try HingeSettings.angles(for: try Self.rig("convertible"), settings: ["lid=-0"]) == [0])
    }

    @Test(arguments: [
        ("hinge=90", "unknown hinge \"hinge\""),
        ("fold=181", "outside hinge fold's range [0, 180]"),
        ("fold=-5", "outside hinge fold's range"),
        ("fold=ninety", "\"ninety\" is not a number"),
        ("fold=nan", "is not a number"),
        ("fold", "expected ID=DEGREES"),
        ("=90", "expected ID=DEGREES"),
    ])
    func badHingeSettingsAreRejected(setting: String, message: String) throws {
        let duo = try Self.rig("duo")
        let error = #expect(throws: HingeSettings.InvalidSetting.self) {
            try HingeSettings.angles(for: duo, settings: [setting])
        }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "no error")")
    }

    @Test func aHingeSetTwiceOrOnAHingelessRigIsRejected() throws {
        let duo = try Self.rig("duo")
        #expect(throws: HingeSettings.InvalidSetting.self) { try HingeSettings.angles(for: duo, settings: ["fold=10", "fold=20"]) }
        let error = #expect(throws: HingeSettings.InvalidSetting.self) {
            try HingeSettings.angles(for: try Self.rig("kiosk"), settings: ["fold=10"])
        }
        #expect(error?.description.contains("rig kiosk has no hinges") == true)
    }

    @Test func nearerPanelsArePaintedLast() throws {
        // Closed duo: `right` lies over left's A face, so from above it is nearer and painted
        // last; from the opposite side `left` is nearer.
        let svg = try Self.render("duo", ["fold=0"])
        #expect(Self.panelOrder(svg, view: "front") == ["left", "right"])
        #expect(Self.panelOrder(svg, view: "opposite") == ["right", "left"])
        // Labels name only what is not covered: from above right.B (the outer display), not
        // left.A under it; from below left.B (the back), not right.A.
        let views = svg.split(separator: "data-view=\"opposite\"")
        #expect(views[0].contains("data-face-label=\"right.B\""))
        #expect(!views[0].contains("data-face-label=\"left.A\""))
        #expect(views[1].contains("data-face-label=\"left.B\""))
        #expect(!views[1].contains("data-face-label=\"right.A\""))
        #expect(views[0].contains("data-camera-label=\"outer-front\""))
        #expect(views[1].contains("data-camera-label=\"back\""))
    }

    @Test func openDuoShowsAFacesFromTheFrontAndBFacesFromBehind() throws {
        let svg = try Self.render("duo", ["fold=180"])
        for face in ["left.A", "right.A", "left.B", "right.B"] { #expect(svg.contains(">\(face)<"), "\(face)") }
        let front = svg.split(separator: "data-view=\"opposite\"")[0]
        #expect(front.contains("data-face=\"A\"") && !front.contains("data-face=\"B\""))
    }

    @Test func sceneFollowsTheKinematics() throws {
        let duo = try Self.rig("duo")
        // Half open: `right` stands on left's A side (+z), its A face toward `left` (−x).
        let half = RigScene(rig: duo, angles: [90])
        #expect(half.panels[1].centre.z > 30)
        #expect(half.panels[1].normal(.a).x < -0.99)
        #expect(half.hinges[0].axis == Vector3(0, -1, 0))
        // Closed: `right` lies over `left` (same x and y), just off its A face.
        let closed = RigScene(rig: duo, angles: [0])
        let offset = closed.panels[1].centre - closed.panels[0].centre
        #expect(abs(offset.x) < 1e-9 && abs(offset.y) < 1e-9)
        #expect(offset.z > 0 && offset.z < 10)
        // Camera arrows run along their face normal.
        let camera = half.cameras[duo.cameraIndex("inner-front")!]
        #expect(((camera.tip - camera.position).normalized ?? .zero).x < -0.99)
        // Convertible folded back past 180°: the lid goes under the base (B side).
        let tent = RigScene(rig: try Self.rig("convertible"), angles: [300])
        #expect(tent.panels[1].centre.z < 0)
    }

    @Test func aReversedHingeAxisIsCalledOut() throws {
        let text = try #require(RigPresets.json("duo")).replacingFirst("\"axis\": [0, -1, 0]", with: "\"axis\": [0, 1, 0]")
        let rig = try RigDecoder.decode(json: text)
        let svg = RigRenderer.svg(rig: rig, angles: [90])
        #expect(RigLegend(rig: rig, angles: [90]).notes == ["hinge fold: closing swings right over left's B face; the axis should be (0, -1, 0)"])
        #expect(svg.contains(">warning: hinge fold: closing swings right over left&apos;s B face; the axis should be (0, -1, 0)<"))
        // …and the picture shows it: `right` hangs below left's A face.
        #expect(RigScene(rig: rig, angles: [90]).panels[1].centre.z < 0)
        for id in RigPresets.ids { #expect(RigLegend(rig: try Self.rig(id), angles: try Self.rig(id).hinges.map(\.initial)).notes.isEmpty, "\(id)") }
    }

    @Test func textFromRigFilesIsEscaped() throws {
        let text = try #require(RigPresets.json("duo")).replacingFirst("\"name\": \"Book foldable", with: "\"name\": \"<b>Tom & Jerry's</b> foldable")
        let svg = RigRenderer.svg(rig: try RigDecoder.decode(json: text), angles: [180])
        #expect(svg.contains("&lt;b&gt;Tom &amp; Jerry&apos;s&lt;/b&gt; foldable"))
        #expect(Self.balancedTags(svg) != nil)
    }

    @Test func numbersAreShortAndFixedPoint() {
        #expect(NumberText.compact(12.5) == "12.5")
        #expect(NumberText.compact(-3) == "-3")
        #expect(NumberText.compact(0.07) == "0.07")
        #expect(NumberText.compact(-0.004) == "0")
        #expect(NumberText.compact(2.999) == "3")
        #expect(NumberText.degrees(180) == "180°")
    }
}

private struct RenderTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        replacing(target, with: replacement, maxReplacements: 1)
    }
}
