// Scenario scripts (`ScenarioScript`, streamed), one of the targets of Tests/fuzz/run, against
// the built-in rigs (the first byte picks one, so every rig's ids get exercised).
//
// Invariants: checking never traps; a refused script names its problems (capped) and the
// collecting decoder agrees; an accepted script runs (its first `maximumSteps` steps) through
// the engine, one state per step, each valid JSON that parses back to itself with only finite
// numbers (a gravity of [1e308, 0, -1e308] once came out as [null, 0.0, null]).

let fuzzRigs: [Rig] = RigPresets.ids.compactMap { try? RigPresets.rig($0) }

/// Steps run per input: enough to reach every kind of step, few enough to keep inputs fast.
let maximumSteps = 64

func fuzzScenario(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let rig = fuzzRigs[Int(selector) % fuzzRigs.count]
    let script: ScenarioScript
    do {
        script = try ScenarioScript(bytes: Array(bytes.dropFirst()), rig: rig)
    } catch {
        checkErrors(error, "scenario")
        return
    }
    var steps = 0
    ScenarioRunner.run(script) { line in
        check(line["step"] == .int(steps), "step \(steps) numbered \(String(describing: line["step"]))")
        checkFinite(line)
        if let gravity = line["gravity"], gravity != .null {
            guard case let .array(components) = gravity, components.count == 3 else { failed("gravity is \(gravity.compactText)") }
        }
        steps += 1
        if steps <= 4 { checkReply(line) }  // the round trip is the slow part: a few per input
        return steps < maximumSteps
    }
}
