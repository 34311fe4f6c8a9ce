import FoldcamCore
import FoldcamTestSupport
import Testing

/// The same inputs give the same bytes in every process. Swift seeds `Hasher` per process, so
/// anything printed in `Set` or `Dictionary` order comes out differently from one run to the
/// next, while a test that replays inside one process sees the same order every time. These
/// tests therefore run the real executables several times, each a process of its own (with
/// `SWIFT_DETERMINISTIC_HASHING` unset), and compare the outputs byte for byte.
@Suite("output does not depend on the process (per-process hash seeds)")
struct CrossProcessDeterminismTests {
    /// Runs of each command: with several independent seeds, an output that depends on the order
    /// of even a two-element set differs between some pair of runs with probability 1 − 2^−(n−1).
    static let runs = 4

    /// A scenario that moves every input the rig has: each hinge through its range, its
    /// switches, gravity, accelerometers, screen rotations, pins, and cameras leaving and coming
    /// back. Built from the rig itself, so that every step is valid for it.
    static func script(for rig: Rig) -> String {
        var steps: [String] = []
        for hinge in rig.hinges {
            for fraction in [1.0, 0.5, 0.1, 0.0, 0.75] {
                let angle = hinge.minimum + (hinge.maximum - hinge.minimum) * fraction
                steps.append(#"{"hinge": {"\#(hinge.id)": \#(angle)}}"#)
            }
        }
        if rig.switches.lid != nil { steps += [#"{"switches": {"lid": "closed"}}"#, #"{"switches": {"lid": "open"}}"#] }
        if rig.switches.tabletMode != nil { steps += [#"{"switches": {"tabletMode": "on"}}"#, #"{"switches": {"tabletMode": "off"}}"#] }
        steps += [#"{"gravity": [0, -9.8, 0]}"#, #"{"gravity": [3, -4, -8]}"#]
        if rig.accelerometers.count == 2 {
            let readings = rig.accelerometers.map { #""\#($0.id)": [0, -6.93, -6.93]"# }.joined(separator: ", ")
            steps.append(#"{"accelerometers": {\#(readings)}}"#)
        }
        for display in rig.displays {
            steps += [#"{"screenRotation": {"\#(display.id)": 90}}"#, #"{"pinView": "\#(display.id)"}"#]
        }
        steps.append(#"{"pinView": null}"#)
        for camera in rig.cameras {
            steps += [#"{"unplug": "\#(camera.id)"}"#, #"{"busy": "\#(camera.id)"}"#]
        }
        for camera in rig.cameras {
            steps += [#"{"plug": "\#(camera.id)"}"#, #"{"release": "\#(camera.id)"}"#]
        }
        steps.append(#"{"wait": 250}"#)
        return #"{"steps": [\#(steps.joined(separator: ",\n"))]}"#
    }

    /// Runs the executable `runs` times, each in a fresh process; returns each run's stdout.
    static func outputs(of executable: String, _ arguments: [String], in directory: TemporaryDirectory, outputFile: String? = nil) throws -> [String] {
        let path = try Executables.path(of: executable)
        var outputs: [String] = []
        for run in 0..<runs {
            let stdout = directory.file("\(executable)-\(run).out")
            let stderr = directory.file("\(executable)-\(run).err")
            // ChildProcess leaves SWIFT_DETERMINISTIC_HASHING out: each process seeds its own.
            let process = try ChildProcess(executable: path, arguments: arguments, stdoutPath: stdout, stderrPath: stderr)
            let code = process.exitCode(timeout: .seconds(60))
            guard code == 0 else {
                throw HarnessError("\(executable) \(arguments.joined(separator: " ")) exited with \(code.map(String.init) ?? "no code"): \(process.stderr)")
            }
            outputs.append(outputFile.map(readTextFile) ?? process.stdout)
        }
        return outputs
    }

    @Test("foldcamd scenario prints the same bytes in separate processes", arguments: RigPresets.ids)
    func scenarioIsTheSameInEveryProcess(rigID: String) throws {
        let rig = try #require(try RigPresets.rig(rigID))
        let directory = try TemporaryDirectory(prefix: "foldcam-determinism")
        try directory.write("script.json", Self.script(for: rig))
        let outputs = try Self.outputs(of: "foldcamd", ["scenario", "--rig", rigID, "--script", directory.file("script.json")], in: directory)
        let lines = outputs[0].split(separator: "\n")
        let steps = try JSONParser.parse(readTextFile(directory.file("script.json")))["steps"]
        guard case let .array(stepList)? = steps else { throw HarnessError("the script has no steps") }
        #expect(lines.count == stepList.count, "one state per step")
        for (run, output) in outputs.enumerated().dropFirst() {
            #expect(output == outputs[0], "run \(run) differs from run 0 at line \(Self.firstDifference(output, outputs[0]))")
        }
    }

    @Test("foldcamctl rig render draws the same SVG in separate processes", arguments: RigPresets.ids)
    func renderIsTheSameInEveryProcess(rigID: String) throws {
        let rig = try #require(try RigPresets.rig(rigID))
        let directory = try TemporaryDirectory(prefix: "foldcam-determinism")
        let svg = directory.file("\(rigID).svg")
        var arguments = ["rig", "render", rigID, "-o", svg]
        for hinge in rig.hinges {
            arguments += ["--hinge", "\(hinge.id)=\(hinge.minimum + (hinge.maximum - hinge.minimum) * 0.4)"]
        }
        let outputs = try Self.outputs(of: "foldcamctl", arguments, in: directory, outputFile: svg)
        #expect(outputs[0].contains("<svg"), "an SVG was written")
        for (run, output) in outputs.enumerated().dropFirst() {
            #expect(output == outputs[0], "run \(run) differs from run 0 at line \(Self.firstDifference(output, outputs[0]))")
        }
    }

    /// 1-based number of the first line where the two texts differ (0 when equal).
    static func firstDifference(_ a: String, _ b: String) -> Int {
        let (left, right) = (a.split(separator: "\n", omittingEmptySubsequences: false), b.split(separator: "\n", omittingEmptySubsequences: false))
        for index in 0..<max(left.count, right.count) where index >= left.count || index >= right.count || left[index] != right[index] {
            return index + 1
        }
        return 0
    }
}
