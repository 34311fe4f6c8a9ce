import FoldcamCore
import Foundation
import Testing

/// Displays named by their DRM connector: decoding, and what an output that shows nothing does
/// to the decisions (docs/rig-format.md "Outputs", docs/model.md "Outputs").
@Suite struct DisplayOutputTests {
    static let innerLine = #"{"id": "inner", "faces": ["left.A", "right.A"], "anchor": "right"}"#
    static let outerLine = #"{"id": "outer", "faces": ["right.B"]}"#

    func duo(inner: String = "", outer: String = "") throws -> String {
        let text = try #require(RigPresets.json("duo"))
        #expect(text.contains(Self.innerLine) && text.contains(Self.outerLine), "fixture text must exist in duo.json")
        func with(_ line: String, _ extra: String) -> String {
            extra.isEmpty ? line : String(line.dropLast()) + ", " + extra + "}"
        }
        return text.replacingOccurrences(of: Self.innerLine, with: with(Self.innerLine, inner))
            .replacingOccurrences(of: Self.outerLine, with: with(Self.outerLine, outer))
    }

    func outputRig() throws -> Rig {
        try RigDecoder.decode(json: try duo(inner: #""output": "eDP-1""#, outer: #""output": "eDP-2""#))
    }

    @Test func outputsDecode() throws {
        let text = try duo(
            inner: #""output": "eDP-1", "mountRotation": 90"#,
            outer: #""output": "DSI-1", "edid": {"vendor": "BOE", "product": 2342, "serial": "0"}"#)
        let rig = try RigDecoder.decode(json: text)
        #expect(rig.displays[0].output == DisplayOutput(connector: "eDP-1", mountRotation: 90))
        #expect(rig.displays[1].output == DisplayOutput(connector: "DSI-1", edid: EDIDMatch(vendor: "BOE", product: 2342, serial: "0")))
        #expect(rig.displayIndex(output: "DSI-1") == 1)
        #expect(rig.displayIndex(output: "eDP-2") == nil)
        #expect(try RigDecoder.decode(json: try duo()).displays.allSatisfy { $0.output == nil })
    }

    @Test(arguments: [
        (#""output": "EDP-1""#, #"displays[0].output: unknown DRM connector "EDP-1"; did you mean "eDP-1"?"#),
        (#""output": "HDMI-1""#, #"displays[0].output: unknown DRM connector "HDMI-1"; did you mean "HDMI-A-1"?"#),
        (#""output": "eDP""#, #"displays[0].output: "eDP" has no connector number (expected eDP-1, eDP-2, ...)"#),
        (#""output": "eDP-0""#, #"displays[0].output: "eDP-0" has no connector number"#),
        (#""mountRotation": 45"#, "displays[0].mountRotation: 45 is not one of 0, 90, 180, 270"),
        (#""edid": {"vendor": "boe"}"#, #"displays[0].edid.vendor: "boe" is not a PNP manufacturer id"#),
        (#""edid": {"product": 70000}"#, "displays[0].edid.product: 70000 is not an EDID product code"),
        (#""edid": {}"#, "displays[0].edid: names nothing to match"),
        (#""edid": {"model": 1}"#, "displays[0].edid.model: unknown field"),
        (#""outptu": "eDP-1""#, "displays[0].outptu: unknown field"),
    ])
    func badOutputsAreNamed(field: String, expected: String) throws {
        let found = RigFixtures.errors(try duo(inner: field))
        #expect(found.contains { $0.hasPrefix(expected) }, "got: \(found)")
    }

    @Test func twoDisplaysCannotShareAnOutput() throws {
        let found = RigFixtures.errors(try duo(inner: #""output": "eDP-1""#, outer: #""output": "eDP-1""#))
        #expect(found == [#"displays[1].output: output "eDP-1" is already displays[0]'s (each output shows one display)"#])
    }

    @Test func connectorNamesFollowTheKernel() {
        for name in ["eDP-1", "eDP-2", "DSI-1", "HDMI-A-1", "DP-3", "Virtual-1", "LVDS-1", "DVI-I-2"] {
            #expect(ConnectorName.problem(name) == nil, "\(name)")
        }
        for name in ["", "-1", "eDP-", "eDP-x", "eDP-01", "card0-eDP-1"] {
            #expect(ConnectorName.problem(name) != nil, "\(name)")
        }
    }

    @Test(arguments: [
        ("connected", "enabled", "On", OutputState.on),
        ("connected", "disabled", "Off", .off),
        ("connected", "enabled", "Off", .off),
        ("connected", "enabled", "Standby", .off),
        ("disconnected", "disabled", "Off", .disconnected),
        ("unknown", "enabled", "On", .unknown),
        ("connected", nil, nil, .unknown),
    ] as [(String?, String?, String?, OutputState)])
    func sysfsAttributesGiveTheState(status: String?, enabled: String?, dpms: String?, expected: OutputState) {
        #expect(OutputState(status: status, enabled: enabled, dpms: dpms) == expected)
    }

    @Test func unknownOutputsChangeNothing() throws {
        var plain = try Harness("duo")
        var named = Harness(rig: try outputRig())
        named.apply(.output(display: 0, state: .unknown, panelOrientation: nil))
        for angle in [180.0, 90, 20, 0] {
            plain.hinge("fold", angle)
            named.hinge("fold", angle)
            #expect(named.state.viewedDisplay == plain.state.viewedDisplay)
            #expect(named.state.virtualCamera == plain.state.virtualCamera)
            #expect(named.state.displays.map(\.forward) == plain.state.displays.map(\.forward))
        }
    }

    @Test func anOffOutputIsLikeAFoldedShutFace() throws {
        var duo = Harness(rig: try outputRig())
        duo.hinge("fold", 180)
        #expect(duo.viewed == "inner")
        #expect(duo.state.virtualCamera.source == duo.rig.cameraIndex("inner-front"))
        let update = duo.apply(.output(display: 0, state: .off, panelOrientation: nil))
        let inner = duo.state.displays[0]
        #expect(!inner.viewable && inner.unviewable == .outputOff && !inner.occluded)
        #expect(inner.forward.isEmpty && inner.backward.isEmpty && inner.pairs.allSatisfy { $0 == nil })
        // The posture's display is dark: the lit one is viewed, and feeds the virtual camera.
        #expect(duo.viewed == "outer")
        #expect(duo.state.virtualCamera.source == duo.rig.cameraIndex("outer-front"))
        #expect(update.change.displays == [0] && update.change.viewedDisplay && update.change.virtualCameraSource)
        // The cameras on its faces still work for the other display.
        #expect(duo.camera("inner-front").available)
        #expect(duo.backward("outer").contains("inner-front"))

        duo.apply(.output(display: 0, state: .on, panelOrientation: nil))
        #expect(duo.state.displays[0].viewable && duo.viewed == "inner")
        #expect(duo.forward("inner") == ["inner-front"])
    }

    @Test func aPinOnAGoneOutputYieldsUntilItComesBack() throws {
        var duo = Harness(rig: try outputRig())
        duo.apply(.pinView(display: 1))
        #expect(duo.viewed == "outer")
        duo.apply(.output(display: 1, state: .disconnected, panelOrientation: nil))
        #expect(duo.state.displays[1].unviewable == .outputDisconnected)
        #expect(duo.viewed == "inner" && duo.state.pinnedDisplay == 1)
        duo.apply(.output(display: 1, state: .on, panelOrientation: nil))
        #expect(duo.viewed == "outer")
    }

    @Test func everyOutputDarkKeepsThePostureDisplay() throws {
        var duo = Harness(rig: try outputRig())
        duo.apply(.output(display: 0, state: .off, panelOrientation: nil))
        duo.apply(.output(display: 1, state: .off, panelOrientation: nil))
        #expect(duo.viewed == "inner")
        #expect(duo.state.virtualCamera.source == nil && duo.state.virtualCamera.noSourceReason == .noForwardCamera)
    }

    @Test func theRigsMountRotationOverridesTheKernels() throws {
        let rig = try RigDecoder.decode(json: try duo(inner: #""output": "eDP-1", "mountRotation": 180"#, outer: #""output": "eDP-2""#))
        var duo = Harness(rig: rig)
        #expect(duo.state.displays[1].mountRotation == 0 && duo.state.displays[1].mountRotationSource == .none)
        duo.apply(.output(display: 0, state: .on, panelOrientation: 90))
        duo.apply(.output(display: 1, state: .on, panelOrientation: 270))
        #expect(duo.state.displays[0].mountRotation == 180 && duo.state.displays[0].mountRotationSource == .rig)
        #expect(duo.state.displays[1].mountRotation == 270 && duo.state.displays[1].mountRotationSource == .kernel)
    }

    @Test func aMountRotationTurnsPreviewsLikeAScreenRotation() throws {
        let rig = try RigDecoder.decode(json: try duo(inner: #""output": "eDP-1", "mountRotation": 90"#))
        var mounted = Harness(rig: rig)
        var rotated = try Harness("duo")
        rotated.apply(.screenRotation(display: 0, degrees: 90))
        #expect(mounted.pair("inner", "inner-front")?.previewRotation == rotated.pair("inner", "inner-front")?.previewRotation)
        #expect(mounted.pair("inner", "inner-front")?.previewRotation != Harness(rig: try preset("duo")).pair("inner", "inner-front")?.previewRotation)
        // Screen rotation adds to it: 90 + 270 is upright again.
        mounted.apply(.screenRotation(display: 0, degrees: 270))
        #expect(mounted.pair("inner", "inner-front")?.previewRotation == Harness(rig: try preset("duo")).pair("inner", "inner-front")?.previewRotation)
    }

    @Test func theStateShowsTheOutput() throws {
        var duo = Harness(rig: try outputRig())
        duo.apply(.output(display: 1, state: .off, panelOrientation: 90))
        let state = StateEncoder.encode(duo.state, rig: duo.rig, plan: duo.engine.plan)
        let outer = try #require(state["displays"]?["outer"])
        #expect(outer["viewable"] == .bool(false) && outer["reason"] == .string("outputOff"))
        #expect(outer["output"] == .string("eDP-2") && outer["outputState"] == .string("off"))
        #expect(outer["mountRotation"] == .int(90) && outer["mountRotationSource"] == .string("kernel"))
        let inner = try #require(state["displays"]?["inner"])
        #expect(inner["viewable"] == .bool(true) && inner["reason"] == nil && inner["outputState"] == .string("unknown"))
    }

    @Test func scenariosSetOutputs() throws {
        let rig = try outputRig()
        let scenario = try Scenario.decode(json: #"{"steps": [{"output": {"outer": "disconnected"}}, {"output": {"outer": "on"}}]}"#, rig: rig)
        #expect(scenario.steps == [[.output(display: 1, state: .disconnected, panelOrientation: nil)], [.output(display: 1, state: .on, panelOrientation: nil)]])
        #expect(throws: DocumentErrors.self) { try Scenario.decode(json: #"{"steps": [{"output": {"outer": "dark"}}]}"#, rig: rig) }
    }

    /// The scenario "output gone and back": the outer output unplugged while the duo closes, then
    /// plugged back, as `foldcamd scenario` prints it.
    @Test func scenarioOutputGoneAndBack() throws {
        let rig = try outputRig()
        let script = #"""
            {"steps": [{"hinge": {"fold": 180}}, {"output": {"outer": "on", "inner": "on"}},
                       {"hinge": {"fold": 5}}, {"output": {"outer": "disconnected"}},
                       {"hinge": {"fold": 180}}, {"output": {"outer": "on"}}, {"hinge": {"fold": 0}}]}
            """#
        let lines = ScenarioRunner.run(try Scenario.decode(json: script, rig: rig), rig: rig)
        func summary(_ line: JSONValue) -> String {
            let outer = line["displays"]?["outer"]
            let virtual = line["virtualCamera"]?["source"]?.stringValue ?? "none"
            return "\(line["viewedDisplay"]?.stringValue ?? "?") \(virtual) outer=\(outer?["outputState"]?.stringValue ?? "?")/\(outer?["reason"]?.stringValue ?? "viewable")"
        }
        #expect(lines.map(summary) == [
            "inner inner-front outer=unknown/viewable",
            "inner inner-front outer=on/viewable",
            "outer outer-front outer=on/viewable",
            // Closed with the outer output gone: no display can be viewed; the posture's stays.
            "outer none outer=disconnected/outputDisconnected",
            "inner inner-front outer=disconnected/outputDisconnected",
            "inner inner-front outer=on/viewable",
            "outer outer-front outer=on/viewable",
        ])
        #expect(lines[3]["changed"] == .array([.string("directions"), .string("virtualCamera")]))
    }

    @Test func edidIdentityIsParsedAndMatched() throws {
        var bytes = [UInt8](repeating: 0, count: 128)
        bytes[0..<8] = [0, 255, 255, 255, 255, 255, 255, 0]
        // "BOE": B=2, O=15, E=5 → 0b0_00010_01111_00101.
        bytes[8] = 0x09
        bytes[9] = 0xE5
        bytes[10] = 0x26
        bytes[11] = 0x09  // product 0x0926 = 2342
        bytes[12] = 1
        bytes[54..<72] = [0, 0, 0, 0xFF, 0] + Array("ABC123\n      ".utf8)
        let identity = try #require(EDIDIdentity(bytes: bytes))
        #expect(identity == EDIDIdentity(vendor: "BOE", product: 2342, serialNumber: 1, serialText: "ABC123"))
        #expect(EDIDMatch(vendor: "BOE", product: 2342).matches(identity))
        #expect(EDIDMatch(serial: "ABC123").matches(identity) && EDIDMatch(serial: "1").matches(identity))
        #expect(!EDIDMatch(vendor: "SDC").matches(identity) && !EDIDMatch(product: 1).matches(identity))
        #expect(EDIDIdentity(bytes: Array(bytes[0..<100])) == nil)
    }

    @Test func panelOrientationNames() {
        #expect(["Normal", "Left Side Up", "Upside Down", "Right Side Up"].map(PanelOrientation.mountRotation) == [0, 90, 180, 270])
        #expect(PanelOrientation.mountRotation("sideways") == nil)
    }
}
