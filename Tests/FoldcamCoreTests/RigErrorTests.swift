import FoldcamCore
import Foundation
import Testing

/// Bad rig descriptions are reported with the JSON path and what was expected.
@Suite struct RigErrorTests {
    func errors(_ text: String) -> [String] {
        do {
            _ = try RigDecoder.decode(json: text)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    func duo(replacing old: String, with new: String) throws -> String {
        let text = try #require(RigPresets.json("duo"))
        #expect(text.contains(old), "fixture text must exist in duo.json")
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test func unknownPanelInCameraFace() throws {
        let text = try duo(replacing: #""face": "left.B""#, with: #""face": "rigth.A""#)
        #expect(errors(text) == [#"cameras[2].face: unknown panel "rigth" (panels: left, right)"#])
    }

    @Test(arguments: [
        (#""axis": [0, -1, 0]"#, #""axis": [0, 0, 0]"#, "panels[1].hinge.axis: zero axis"),
        (#""axis": [0, -1, 0]"#, #""axis": [0, -2, 0]"#, "panels[1].hinge.axis: axis has length 2.0 (expected a unit vector)"),
        (#""range": [0, 180]"#, #""range": [90, 90]"#, "panels[1].hinge.range: empty range [90, 90]"),
        (#""range": [0, 180]"#, #""range": [0, 400]"#, "panels[1].hinge.range: range must lie within 0...360"),
        (#""fold": [30, 150]"#, #""fold": [20, 150]"#, #"postures[1].ranges: posture "halfOpen" overlaps posture "closed""#),
        (#""fold": [30, 150]"#, #""fold": [40, 150]"#, "postures: no posture covers fold=30"),
        (#""fold": [30, 150]"#, #""fold": [150, 30]"#, "postures[1].ranges.fold: empty range"),
        (#""sensorRotation": 0,"#, #""sensorRotaton": 0,"#, "cameras[0].sensorRotaton: unknown field"),
        (#""sensorRotation": 0,"#, #""sensorRotation": 45,"#, "cameras[0].sensorRotation: 45 is not one of 0, 90, 180, 270"),
        (#""id": "outer-front""#, #""id": "inner-front""#, #"cameras[1].id: duplicate id "inner-front""#),
        (#""display": "outer""#, #""display": "outr""#, #"postures[0].display: unknown display "outr" (displays: inner, outer)"#),
        (#""hinge": "fold", "angle": 0"#, #""hinge": "fold", "angle": 270"#, "switches.lid.angle: 270 is outside hinge \"fold\""),
        (#""anchor": "right""#, #""anchor": "nowhere""#, #"displays[0].anchor: unknown panel "nowhere""#),
        (#""width": 640"#, #""width": -640"#, "cameras[0].formats[2]: size -640x480 is out of range"),
        (#""pixelFormats": ["NV12", "YUYV"], "width": 1920, "height": 1080, "fps": 60}"#, #""pixelFormats": ["NV1", "YUYV"], "width": 1920, "height": 1080, "fps": 60}"#, "is not a FourCC"),
    ])
    func brokenDuo(old: String, new: String, expected: String) throws {
        let text = try duo(replacing: old, with: new)
        let found = errors(text)
        #expect(found.contains { $0.hasPrefix(expected) || $0.contains(expected) }, "got: \(found)")
    }

    @Test func everyErrorIsReportedNotJustTheFirst() throws {
        var text = try duo(replacing: #""face": "left.B""#, with: #""face": "rigth.A""#)
        text = text.replacingOccurrences(of: #""display": "outer""#, with: #""display": "outr""#)
        text = text.replacingOccurrences(of: #""axis": [0, -1, 0]"#, with: #""axis": [0, 0, 0]"#)
        #expect(errors(text).count == 3)
    }

    @Test func parentCycleIsCaught() {
        let text = """
            {"id": "loop", "panels": [{"id": "a"}, {"id": "b", "parent": "c", "hinge": {"id": "h1", "axis": [1,0,0], "range": [0,180]}},
                                      {"id": "c", "parent": "b", "hinge": {"id": "h2", "axis": [1,0,0], "range": [0,180]}}],
             "displays": [{"id": "d", "faces": ["a.A"]}],
             "cameras": [{"id": "c1", "face": "a.A", "formats": [{"pixelFormats": ["YUYV"], "width": 1, "height": 1, "fps": 1}]}],
             "postures": [{"id": "p", "ranges": {}, "display": "d"}]}
            """
        #expect(errors(text).contains { $0.contains("parent cycle among panels b, c") })
    }

    @Test func twoRootsAndDuplicatePanels() {
        let text = """
            {"id": "x", "panels": [{"id": "a"}, {"id": "a"}],
             "displays": [{"id": "d", "faces": ["a.A"]}],
             "cameras": [{"id": "c1", "face": "a.A", "formats": [{"pixelFormats": ["YUYV"], "width": 1, "height": 1, "fps": 1}]}],
             "postures": [{"id": "p", "ranges": {}, "display": "d"}]}
            """
        let found = errors(text)
        #expect(found.contains { $0.contains("2 root panels") })
        #expect(found.contains { $0.hasPrefix(#"panels[1].id: duplicate id "a""#) })
    }

    @Test(arguments: [
        ("", "invalid JSON: line 1, column 1"),
        ("{\"id\": ", "invalid JSON"),
        ("[]", "expected an object, found an array"),
        ("{}", "id: missing"),
        (#"{"id": "x", "panels": [], "displays": [], "cameras": [], "postures": []}"#, "panels: must not be empty"),
    ])
    func malformedDocuments(text: String, expected: String) {
        let found = errors(text)
        #expect(found.contains { $0.contains(expected) }, "got: \(found)")
    }

    @Test func accelerometersMustShareAHinge() throws {
        var text = try #require(RigPresets.json("convertible"))
        text = text.replacingOccurrences(of: #"{"id": "display", "panel": "lid"}"#, with: #"{"id": "display", "panel": "base"}"#)
        #expect(errors(text).contains { $0.hasPrefix("accelerometers: the accelerometers' panels") })
    }
}

@Suite struct ScenarioTests {
    func scenarioErrors(_ text: String, rig: String = "duo") throws -> [String] {
        let rig = try preset(rig)
        do {
            _ = try Scenario.decode(json: text, rig: rig)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func theIssueExampleRunsOnTheConvertible() throws {
        let rig = try preset("convertible")
        let scenario = try Scenario.decode(json: """
            {"steps": [
              {"hinge": {"lid": 180}}, {"switches": {"lid": "closed"}}, {"switches": {"tabletMode": "on"}},
              {"gravity": [0, -0.866, -0.5]}, {"accelerometers": {"base": [0, 0, -9.8], "display": [0, 3.4, -9.2]}},
              {"screenRotation": {"main": 180}}, {"pinView": "main"}, {"pinView": null},
              {"unplug": "world"}, {"plug": "world"}, {"wait": 250}
            ]}
            """, rig: rig)
        let lines = ScenarioRunner.run(scenario, rig: rig)
        #expect(lines.count == 11)
        for (index, line) in lines.enumerated() {
            #expect(line["step"] == .int(index))
            for key in ["posture", "hinges", "viewedDisplay", "displays", "cameras", "virtualCamera"] {
                #expect(line[key] != nil, "step \(index) lacks \(key)")
            }
        }
        #expect(lines[1]["posture"] == .string("closed"))
        #expect(lines[8]["cameras"]?["world"]?["reason"] == .string("unplugged"))
        #expect(lines[10]["timeMs"] == .int(250))
    }

    @Test func theRunnerFeedsTheSameEventsAsTheEngine() throws {
        let rig = try preset("duo")
        let scenario = try Scenario.decode(json: #"{"steps": [{"hinge": {"fold": 90}}, {"unplug": "back"}, {"pinView": "outer"}]}"#, rig: rig)
        let lines = ScenarioRunner.run(scenario, rig: rig)
        var engine = FoldEngine(rig: rig)
        let events: [InputEvent] = [.hingeAngle(hinge: 0, degrees: 90), .cameraUnplugged(camera: 2), .pinView(display: 1)]
        for (line, event) in zip(lines, events) {
            _ = engine.apply(event)
            #expect(line["displays"] == StateEncoder.encode(engine.state, rig: rig, plan: engine.plan)["displays"])
        }
    }

    @Test func droppedReadingsAppearAsWarnings() throws {
        let rig = try preset("duo")
        let scenario = try Scenario.decode(json: #"{"steps": [{"hinge": {"fold": 500}}]}"#, rig: rig)
        let line = try #require(ScenarioRunner.run(scenario, rig: rig).first)
        #expect(line["warnings"] != nil)
        #expect(line["hinges"]?["fold"] == .double(180))
    }

    @Test(arguments: [
        (#"{"steps": [{"hinge": {"fodl": 3}}]}"#, #"steps[0].hinge.fodl: unknown hinge "fodl" (hinges: fold)"#),
        (#"{"steps": [{"switches": {"lid": "shut"}}]}"#, #"steps[0].switches.lid: "shut" is not a lid state"#),
        (#"{"steps": [{"screenRotation": {"inner": 45}}]}"#, "steps[0].screenRotation.inner: 45 is not one of 0, 90, 180, 270"),
        (#"{"steps": [{"unplug": "bak"}]}"#, #"steps[0].unplug: unknown camera "bak""#),
        (#"{"steps": [{"jump": 1}]}"#, "steps[0].jump: unknown step"),
        (#"{"steps": [3]}"#, "steps[0]: expected an object, found a number"),
        (#"{"steps": [{"wait": -5}]}"#, "steps[0].wait: -5 is out of range"),
        (#"{"steps": [{"gravity": [0, 1]}]}"#, "steps[0].gravity: expected 3 numbers, found 2"),
        (#"{"stpes": []}"#, "stpes: unknown field"),
        ("{\"steps\": [}", "invalid JSON"),
    ])
    func badScenarios(text: String, expected: String) throws {
        let found = try scenarioErrors(text)
        #expect(found.contains { $0.hasPrefix(expected) || $0.contains(expected) }, "got: \(found)")
    }
}
