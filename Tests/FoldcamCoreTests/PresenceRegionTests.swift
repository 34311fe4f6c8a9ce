import FoldcamCore
import Foundation
import Testing

/// A presence input covering part of a display (docs/model.md, "Presence inputs"): the ThinkPad
/// X1 Fold 16's keyboard laid on the lower half of its one screen (faces bottom.A and top.A).
@Suite struct PresenceRegionTests {
    static let modelsDirectory = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/models.d"

    /// The shipped model's rig: the keyboard's attribute covers face bottom.A of "screen".
    static func x1Fold() throws -> Rig {
        let text = try String(contentsOfFile: modelsDirectory + "/lenovo-thinkpad-x1-fold-16-gen1.json", encoding: .utf8)
        return try DeviceModelDecoder.decode(json: text, id: "lenovo-thinkpad-x1-fold-16-gen1").resolvedRig()
    }

    /// The model's rig written out with a presence entry of the test's.
    static func rig(presence: String, mount: String = "", panels: String = #"[345, 140]"#) throws -> Rig {
        let format = #"{"pixelFormats": ["YUYV"], "width": 1280, "height": 720, "fps": 30}"#
        return try RigDecoder.decode(json: #"""
        {"id": "fold", "panels": [{"id": "bottom", "size": \#(panels)},
          {"id": "top", "parent": "bottom", "size": [345, 140], "hinge": {"id": "fold", "axis": [1, 0, 0], "range": [0, 180], "edge": "top"}}],
         "displays": [{"id": "screen", "faces": ["bottom.A", "top.A"], "anchor": "top"\#(mount)}],
         "cameras": [{"id": "user", "face": "top.A", "formats": [\#(format)]}, {"id": "low", "face": "bottom.A", "formats": [\#(format)]}],
         "postures": [{"id": "closed", "ranges": {"fold": [0, 20]}, "display": "screen"},
                      {"id": "open", "ranges": {"fold": [20, 180]}, "display": "screen"}],
         "presence": [\#(presence)]}
        """#)
    }

    static let keyboard = #"{"id": "keyboard", "attribute": {"device": "thinkpad_acpi", "name": "keyboard_attached_on_screen"}, "covers": [{"display": "screen", "face": "bottom.A"}]}"#

    func refused(_ presence: String) -> String {
        do {
            _ = try Self.rig(presence: presence)
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    @Test func theModelFollowsTheKeyboardAttribute() throws {
        let rig = try Self.x1Fold()
        let screen = try #require(rig.displayIndex("screen"))
        let bottom = try #require(rig.panelIndex("bottom"))
        #expect(rig.presence == [PresenceInput(
            id: "keyboard", attribute: PlatformAttribute(device: "thinkpad_acpi", name: "keyboard_attached_on_screen"),
            covers: [DisplayCover(display: screen, face: FaceRef(panel: bottom, side: .a))])])
        #expect(rig.presence[0].attribute?.path == "/sys/devices/platform/thinkpad_acpi/keyboard_attached_on_screen")
    }

    @Test func theLowerFaceIsTheLowerHalfOfTheScreen() throws {
        let rig = try Self.x1Fold()
        let rects = DisplayRegions.faceRects(rig.displays[0], rig: rig)
        #expect(rects == [DisplayRect(x: 0, y: 0.5, width: 1, height: 0.5), DisplayRect(x: 0, y: 0, width: 1, height: 0.5)])
    }

    @Test func unequalPanelsGiveTheirShares() throws {
        // A lower panel 420 mm high under a 140 mm one: it is three quarters of the screen.
        let rig = try Self.rig(presence: Self.keyboard, panels: "[345, 420]")
        let rects = DisplayRegions.faceRects(rig.displays[0], rig: rig)
        #expect(rects.first == DisplayRect(x: 0, y: 0.25, width: 1, height: 0.75))
    }

    @Test(arguments: [
        (0, DisplayRect(x: 0, y: 0.5, width: 1, height: 0.5)),
        (90, DisplayRect(x: 0.5, y: 0, width: 0.5, height: 1)),
        (180, DisplayRect(x: 0, y: 0, width: 1, height: 0.5)),
        (270, DisplayRect(x: 0, y: 0, width: 0.5, height: 1)),
    ])
    func aMountRotationTurnsTheRectangle(degrees: Int, expected: DisplayRect) {
        #expect(DisplayRect(x: 0, y: 0.5, width: 1, height: 0.5).turned(clockwise: degrees) == expected)
    }

    @Test func theKeyboardCoversTheLowerHalfOnlyAfterTheDebounce() throws {
        var rig = Harness(rig: try Self.rig(presence: Self.keyboard))
        rig.hinge("fold", 180)
        #expect(rig.forward("screen") == ["user", "low"])
        _ = rig.engine.apply(.presence(input: 0, present: true), atMilliseconds: 0)
        #expect(rig.state.displays[0].covered.isEmpty, "not yet: a change must hold 400 ms")
        let settled = rig.engine.apply(.advanceTime(milliseconds: 0), atMilliseconds: 400)
        let display = rig.state.displays[0]
        #expect(!display.occluded && display.viewable, "the top half is still in use")
        #expect(display.covered == [CoveredPart(face: FaceRef(panel: 0, side: .a), rect: DisplayRect(x: 0, y: 0.5, width: 1, height: 0.5))])
        #expect(settled.change.displays == [0], "a client of the directions topic hears of it")
        #expect(rig.camera("low").unavailable == .occluded, "a camera under the keyboard is covered")
        #expect(rig.forward("screen") == ["user"])
        #expect(rig.state.screens[0].on)
        _ = rig.engine.apply(.presence(input: 0, present: false), atMilliseconds: 1000)
        _ = rig.engine.apply(.advanceTime(milliseconds: 0), atMilliseconds: 1400)
        #expect(rig.state.displays[0].covered.isEmpty)
        #expect(rig.camera("low").available)
    }

    @Test func theViewerIsTheRemainingFacesViewer() throws {
        // Folded to 110°, the screen's normal is the sum of both faces'; with the lower face
        // covered it is the top face's alone, so θ of the top camera goes to 0.
        var rig = Harness(rig: try Self.rig(presence: Self.keyboard))
        rig.hinge("fold", 110)
        #expect(try #require(rig.pair("screen", "user")).theta > 30)
        _ = rig.engine.apply(.presence(input: 0, present: true), atMilliseconds: 0)
        _ = rig.engine.apply(.advanceTime(milliseconds: 0), atMilliseconds: 400)
        #expect(try #require(rig.pair("screen", "user")).theta < 1e-6)
        #expect(rig.posture == "open", "the posture still follows the hinge")
    }

    @Test func coveringEveryFaceOccludesTheDisplay() throws {
        let both = #"{"id": "cover", "usb": ["17ef:6161"], "covers": [{"display": "screen", "face": "bottom.A"}, {"display": "screen", "face": "top.A"}]}"#
        var rig = Harness(rig: try Self.rig(presence: both))
        _ = rig.engine.apply(.presence(input: 0, present: true), atMilliseconds: 0)
        _ = rig.engine.apply(.advanceTime(milliseconds: 0), atMilliseconds: 400)
        #expect(rig.occluded("screen"))
        #expect(rig.state.displays[0].covered.isEmpty, "a whole display occluded has no part to name")
    }

    @Test func theStateNamesTheCoveredPart() throws {
        let rig = try Self.rig(presence: Self.keyboard, mount: #", "mountRotation": 90"#)
        let script = #"{"steps": [{"hinge": {"fold": 180}}, {"presence": {"keyboard": "present"}}, {"wait": 400}, {"presence": {"keyboard": "absent"}}, {"wait": 400}]}"#
        let states = ScenarioRunner.run(try Scenario.decode(json: script, rig: rig), rig: rig)
        let covered = states.map { $0["displays"]?["screen"]?["covered"] }
        #expect(covered[0] == nil && covered[1] == nil && covered[4] == nil)
        // Mounted turned 90°: the lower half is the right half of the panel's own scan-out.
        let part = JSONValue.object([("face", .string("bottom.A")), ("x", .double(0.5)), ("y", .double(0)), ("width", .double(0.5)), ("height", .double(1))])
        #expect(covered[2] == .array([part]) && covered[3] == .array([part]), "\(covered)")
        #expect(states[2]["displays"]?["screen"]?["occluded"] == .bool(false))
    }

    @Test(arguments: [
        (#"{"id": "k", "attribute": {"device": "thinkpad_acpi", "name": "kb"}, "covers": [{"display": "screen", "face": "botom.A"}]}"#,
         #""botom.A" is not a face of display "screen"; did you mean "bottom.A"? (its faces: bottom.A, top.A)"#),
        (#"{"id": "k", "attribute": {"device": "thinkpad_acpi", "name": "kb"}, "covers": [{"display": "screen", "face": "top.B"}]}"#,
         #""top.B" is not a face of display "screen""#),
        (#"{"id": "k", "attribute": {"device": "thinkpad_acpi", "name": "kb"}, "covers": [{"display": "scren", "face": "top.A"}]}"#,
         #"presence[0].covers[0].display: unknown display "scren"; did you mean "screen"? (displays: screen)"#),
        (#"{"id": "k", "attribute": {"device": "thinkpad_acpi", "name": "kb"}, "covers": [{"display": "screen"}]}"#,
         #"presence[0].covers[0].face: missing (expected one of the display's faces, e.g. "bottom.A")"#),
        (#"{"id": "k", "attribute": {"device": "../../etc", "name": "kb"}, "covers": ["screen"]}"#,
         #""../../etc" may hold only letters, digits"#),
        (#"{"id": "k", "attribute": {"device": "thinkpad_acpi", "name": ".."}, "covers": ["screen"]}"#,
         #"must name a file"#),
        (#"{"id": "k", "attribute": {"device": "thinkpad_acpi"}, "covers": ["screen"]}"#,
         #"presence[0].attribute.name: missing"#),
        (#"{"id": "k", "covers": ["screen"]}"#, #"says no device"#),
        (#"{"id": "k", "usb": ["17ef:6161"], "attribute": {"device": "thinkpad_acpi", "name": "kb"}, "covers": ["screen"]}"#,
         #"gives both "usb" and "attribute""#),
    ])
    func badCoversAndAttributesAreNamed(presence: String, message: String) {
        let error = refused(presence)
        #expect(error.contains(message), "\(error)")
    }

    @Test(arguments: [
        (#"{"display": "screen", "face": "bottom.B"}"#, #"devices.presence[0].covers.face: "bottom.B" is not a face of the model's rig display "screen"; did you mean "bottom.A"?"#),
        (#"{"display": "screens", "face": "bottom.A"}"#, #"devices.presence[0].covers.display: names no display of the model's rig "screens"; did you mean "screen"?"#),
    ])
    func aModelsFaceIsCheckedAgainstItsRig(covers: String, message: String) throws {
        var text = try String(contentsOfFile: Self.modelsDirectory + "/lenovo-thinkpad-x1-fold-16-gen1.json", encoding: .utf8)
        text = text.replacingOccurrences(of: #""covers": {"display": "screen", "face": "bottom.A"}"#, with: #""covers": \#(covers)"#)
        do {
            _ = try DeviceModelDecoder.decode(json: text, id: "x").resolvedRig()
            Issue.record("resolved \(covers)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test(arguments: [("1\n", true), ("0\n", false), (" 2 ", true), ("yes", nil), ("", nil)] as [(String, Bool?)])
    func anAttributeReadsAsPresence(text: String, present: Bool?) {
        #expect(PlatformAttribute.present(text) == present)
    }
}
