@testable import FoldcamCore
import Testing

/// `foldcamd scenario` streams: the script is checked whole, then each step is decoded, run and
/// handed out before the next one is read.
@Suite struct ScenarioStreamingTests {
    func waits(_ count: Int, last: String = #"{"wait": 0}"#) -> [UInt8] {
        Array(("{\"steps\": [" + Array(repeating: #"{"wait": 1}"#, count: count - 1).joined(separator: ",") + "," + last + "]}").utf8)
    }

    @Test func eachStepIsHandedOutInOrderAndTheCallerCanStop() throws {
        let rig = try RigPresets.rig("duo")!
        let script = try ScenarioScript(bytes: waits(10_000), rig: rig)
        var seen: [Int] = []
        ScenarioRunner.run(script) { line in
            if case let .int(step)? = line["step"] { seen.append(step) }
            #expect(line["timeMs"] == .int(seen.count))  // each step waits 1 ms
            return seen.count < 3
        }
        // Stopping after the third line means the other 9,997 steps were never run.
        #expect(seen == [0, 1, 2])
    }

    @Test func aBadLastStepFailsTheWholeScriptBeforeAnythingRuns() throws {
        let rig = try RigPresets.rig("duo")!
        #expect(throws: DocumentErrors([PathError(path: "steps[9999].wait", message: "-1 is out of range (expected 0 to 86400000 milliseconds)")])) {
            _ = try ScenarioScript(bytes: waits(10_000, last: #"{"wait": -1}"#), rig: rig)
        }
    }

    @Test func streamedAndCollectedRunsAgree() throws {
        let rig = try RigPresets.rig("duo")!
        let text = #"{"steps": [{"hinge": {"fold": 90}}, {"unplug": "back"}, {"pinView": "outer"}, {"wait": 5}]}"#
        var streamed: [JSONValue] = []
        ScenarioRunner.run(try ScenarioScript(bytes: Array(text.utf8), rig: rig)) { streamed.append($0); return true }
        #expect(streamed == ScenarioRunner.run(try Scenario.decode(json: text, rig: rig), rig: rig))
    }

    @Test(arguments: [
        (#"{"steps": [], "extra": 1}"#, ["extra: unknown field (expected one of: steps)"]),
        (#"{"other": 1}"#, ["other: unknown field (expected one of: steps)", "steps: missing (expected an array of steps)"]),
        (#"{"steps": {}}"#, ["steps: expected an array, found an object"]),
        (#"[1]"#, ["expected an object, found an array"]),
        (#"{"steps": [], "steps": []}"#, [#"invalid JSON: line 1, column 24: duplicate member "steps""#]),
        (#"{"steps": [{"wait": 0}] "#, ["invalid JSON: line 1, column 25: expected ',' or '}' in object"]),
        (#"{"steps": [{"wait": 0}]} x"#, ["invalid JSON: line 1, column 26: unexpected text after the JSON value"]),
    ])
    func documentProblemsAreReported(text: String, expected: [String]) throws {
        let rig = try RigPresets.rig("duo")!
        do {
            _ = try ScenarioScript(bytes: Array(text.utf8), rig: rig)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.errors.map(\.description) == expected)
        }
    }

    @Test func deepStepsHitTheNestingLimit() throws {
        let rig = try RigPresets.rig("duo")!
        let deep = #"{"steps": ["# + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "]}"
        #expect(throws: DocumentErrors.self) { _ = try ScenarioScript(bytes: Array(deep.utf8), rig: rig) }
    }
}
