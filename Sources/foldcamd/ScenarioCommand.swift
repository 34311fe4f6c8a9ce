import FoldcamCore
import FoldcamIO

/// `foldcamd scenario`: validates the rig and the whole script first (so a bad input prints
/// nothing on stdout), then prints one compact JSON state per step.
enum ScenarioCommand {
    static func run(rigSpec: String, scriptPath: String) throws {
        let rig = try RigLoader.load(rigSpec)
        let text = try RigLoader.readText(scriptPath, what: "scenario")
        let scenario: Scenario
        do {
            scenario = try Scenario.decode(json: text, rig: rig)
        } catch {
            throw RigLoader.LoadError(description: "scenario \(scriptPath == "-" ? "(stdin)" : scriptPath) is invalid:\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
        }
        var output = ""
        for line in ScenarioRunner.run(scenario, rig: rig) {
            output += line.compactText
            output += "\n"
        }
        StandardOutput.write(output)
    }
}
