import FoldcamClient
import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// `foldcamctl` as a user runs it: output and exit codes (0 ok, 1 failure, 2 bad usage or bad
/// input, 3 daemon unreachable: ControlCommandLine.Exit).
@Suite(.serialized)
struct ControlToolTests {
    struct Outcome {
        var code: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        let directory = try TemporaryDirectory()
        let child = try ChildProcess(
            executable: try Executables.path(of: "foldcamctl"), arguments: arguments,
            stdoutPath: directory.file("out"), stderrPath: directory.file("err"), environment: environment)
        guard let code = try await child.waitForExitCode(timeout: .seconds(20)) else {
            child.kill(9)
            throw HarnessError("foldcamctl \(arguments.joined(separator: " ")) did not exit")
        }
        return Outcome(code: code, stdout: child.stdout, stderr: child.stderr)
    }

    @Test func absentDaemonExitsThreeAndSaysHowToStartIt() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("absent.sock")
        for command in [["status"], ["devices"], ["pin", "outer"], ["watch", "--no-wait"], ["sim", "hinge", "fold", "90"]] {
            let outcome = try await Self.run(["--socket", path] + command)
            #expect(outcome.code == 3, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains("daemon not running at \(path)"))
            #expect(outcome.stderr.contains("FOLDCAM_SOCKET"))
        }
        // The environment variable is honoured too.
        let outcome = try await Self.run(["status"], environment: ["FOLDCAM_SOCKET": path])
        #expect(outcome.code == 3)
        #expect(outcome.stderr.contains(path))
    }

    @Test func badUsageExitsTwo() async throws {
        for command in [[], ["frobnicate"], ["sim", "switch", "lid", "ajar"], ["sim", "hinge", "fold", "wide"], ["rotation", "outer"],
                        ["watch", "weather"], ["status", "extra"], ["--socket"]] {
            let outcome = try await Self.run(command)
            #expect(outcome.code == 2, "\(command): \(outcome.stderr)")
            #expect(!outcome.stderr.isEmpty)
        }
    }

    @Test func commandsAgainstTheSimulatedDaemon() async throws {
        let daemon = try await SimulatedDaemon()
        let socket = ["--socket", daemon.socketPath]

        let status = try await Self.run(socket + ["status"])
        #expect(status.code == 0, "\(status.stderr)")
        for text in ["rig             duo", "posture", "fold 180°", "viewed display  inner", "virtual camera  inner-front", "readiness       ready"] {
            #expect(status.stdout.contains(text), "status lacks \(text):\n\(status.stdout)")
        }

        // A plain pin is held while foldcamctl runs.
        let directory = try TemporaryDirectory()
        let pin = try ChildProcess(
            executable: try Executables.path(of: "foldcamctl"), arguments: socket + ["pin", "outer"],
            stdoutPath: directory.file("pin-out"), stderrPath: directory.file("pin-err"))
        let deadline = ContinuousClock.now + .seconds(20)
        while !pin.stdout.contains("virtual camera outer-front") && !pin.hasExited && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(pin.stdout.contains("pinned the view to outer, held while foldcamctl runs"), "\(pin.stdout)\(pin.stderr)")
        #expect(!pin.hasExited, "pin returned instead of holding the pin: \(pin.stderr)")

        let json = try await Self.run(socket + ["--json", "status"])
        #expect(json.code == 0)
        let parsed = try JSONParser.parse(String(json.stdout.split(separator: "\n").first ?? ""))
        #expect(parsed["state"]?["pinnedDisplay"] == .string("outer"))
        #expect(parsed["daemon"]?["rig"] == .string("duo"))
        // Ctrl-C ends foldcamctl and, with its connection, the pin.
        pin.kill(SIGINT)
        _ = try await pin.waitForExitCode(timeout: .seconds(10))
        var pinned: JSONValue? = .string("outer")
        let released = ContinuousClock.now + .seconds(20)
        while pinned != .null && ContinuousClock.now < released {
            let status = try await Self.run(socket + ["--json", "status"])
            pinned = try JSONParser.parse(String(status.stdout.split(separator: "\n").first ?? ""))["state"]?["pinnedDisplay"]
        }
        #expect(pinned == .null, "the pin outlived foldcamctl")
        // --persist needs the daemon's state directory (this one has none).
        let persist = try await Self.run(socket + ["pin", "--persist", "outer"])
        #expect(persist.code == 2 && persist.stderr.contains("no state directory"), "\(persist.code) \(persist.stderr)")

        let hinge = try await Self.run(socket + ["sim", "hinge", "fold", "0"])
        #expect(hinge.code == 0, "\(hinge.stderr)")
        #expect(hinge.stdout.contains("posture closed"))

        let gravity = try await Self.run(socket + ["sim", "gravity", "0", "-9.8", "0"])
        #expect(gravity.code == 0, "\(gravity.stderr)")

        let directions = try await Self.run(socket + ["directions", "--display", "outer"])
        #expect(directions.code == 0)
        #expect(directions.stdout.contains("outer: viewed"))

        let devices = try await Self.run(socket + ["devices"])
        #expect(devices.code == 0)
        #expect(devices.stdout.contains("sim:duo:back"))

        // Input the daemon rejects is bad input like a usage error: exit 2 with the code and message.
        let unknown = try await Self.run(socket + ["pin", "nowhere"])
        #expect(unknown.code == 2)
        #expect(unknown.stderr.contains("invalidParams"))
        #expect(unknown.stderr.contains("nowhere"))
        for degrees in ["45", "abc"] {
            let badRotation = try await Self.run(socket + ["rotation", "outer", degrees])
            #expect(badRotation.code == 2, "rotation outer \(degrees): \(badRotation.stderr)")
            #expect(badRotation.stderr.contains("expected 0, 90, 180 or 270"))
        }
    }

    @Test func watchPrintsEachChangeAndRidesOutARestart() async throws {
        let daemon = try await SimulatedDaemon()
        let directory = try TemporaryDirectory()
        let watch = try ChildProcess(
            executable: try Executables.path(of: "foldcamctl"), arguments: ["--socket", daemon.socketPath, "watch", "posture"],
            stdoutPath: directory.file("out"), stderrPath: directory.file("err"))
        func waitFor(_ text: String) async throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while !watch.stdout.contains(text) {
                guard ContinuousClock.now < deadline, !watch.hasExited else {
                    throw HarnessError("watch never printed \(text):\n\(watch.stdout)\n\(watch.stderr)")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        try await waitFor("posture        open; fold 180°")  // the current value first
        try await daemon.setHinge(90)
        try await waitFor("halfOpen; fold 90°")
        try await daemon.killHard()
        try await daemon.start()
        try await daemon.setHinge(0)
        try await waitFor("closed; fold 0°")
        #expect(watch.stderr.contains("reconnecting"))
        watch.kill(SIGINT)
        _ = try await watch.waitForExitCode(timeout: .seconds(10))
        // open 180 (current value), halfOpen 90, then closed 0 from the new daemon (its start-up
        // value too, if the watch reconnected before the hinge moved).
        #expect(watch.stdout.split(separator: "\n").count >= 3)
    }

    @Test func pinIsMadeAgainWhenTheDaemonComesBackAndTheGapReportedOnce() async throws {
        let daemon = try await SimulatedDaemon()
        let directory = try TemporaryDirectory()
        let pin = try ChildProcess(
            executable: try Executables.path(of: "foldcamctl"), arguments: ["--socket", daemon.socketPath, "pin", "outer"],
            stdoutPath: directory.file("out"), stderrPath: directory.file("err"))
        defer { pin.kill(SIGKILL) }
        func waitFor(_ text: String, in output: @escaping () -> String) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while !output().contains(text) {
                guard ContinuousClock.now < deadline, !pin.hasExited else {
                    throw HarnessError("pin never printed \(text):\n\(pin.stdout)\n\(pin.stderr)")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        func pinnedDisplay() async throws -> JSONValue? {
            let status = try await Self.run(["--socket", daemon.socketPath, "--json", "status"])
            return try JSONParser.parse(String(status.stdout.split(separator: "\n").first ?? ""))["state"]?["pinnedDisplay"]
        }
        try await waitFor("pinned the view to outer", in: { pin.stdout })
        #expect(try await pinnedDisplay() == .string("outer"))
        try await daemon.killHard()
        try await waitFor("not in force until the daemon is back", in: { pin.stderr })
        #expect(!pin.hasExited, "pin ended with the daemon: \(pin.stderr)")
        try await daemon.start()
        // Back in force within the bound, without anyone pinning again; the gap is reported.
        try await waitFor("pinned outer again (it was not in force for", in: { pin.stderr })
        #expect(try await pinnedDisplay() == .string("outer"))
        // The outage is reported once, not on every retry.
        #expect(pin.stderr.split(separator: "\n").filter { $0.contains("not in force until") }.count == 1, "\(pin.stderr)")
        pin.kill(SIGINT)
        _ = try await pin.waitForExitCode(timeout: .seconds(10))
    }

    @Test func theSmallFrictions() async throws {
        // `help` is --help; `directions D` like `pin D`; numbers as typed; why a file was not written.
        let help = try await Self.run(["help"])
        #expect(help.code == 0 && help.stdout.hasPrefix("usage: foldcamctl"), "\(help.code) \(help.stderr)")
        let daemon = try await SimulatedDaemon()
        let socket = ["--socket", daemon.socketPath]
        let directions = try await Self.run(socket + ["directions", "outer"])
        #expect(directions.code == 0 && directions.stdout.hasPrefix("outer: "), "\(directions.stdout)\(directions.stderr)")
        let both = try await Self.run(socket + ["directions", "--display", "outer", "inner"])
        #expect(both.code == 2, "\(both.stderr)")
        // The duo preset names no outputs: asking by output says how to give them.
        let output = try await Self.run(socket + ["directions", "--output", "eDP-1"])
        #expect(output.code != 0 && output.stderr.contains("names no outputs"), "\(output.code) \(output.stderr)")
        let displayAndOutput = try await Self.run(socket + ["directions", "--display", "outer", "--output", "eDP-1"])
        #expect(displayAndOutput.code == 2 && displayAndOutput.stderr.contains("not both"), "\(displayAndOutput.stderr)")
        let range = try await Self.run(socket + ["sim", "hinge", "fold", "400"])
        #expect(range.code == 2 && range.stderr.contains("400 is outside hinge fold's range [0, 180]"), "\(range.stderr)")
        let accelerometer = try await Self.run(socket + ["sim", "accelerometer", "x", "0", "0", "9.8"])
        #expect(accelerometer.code == 2 && accelerometer.stderr.contains("unknown accelerometer \"x\" (the rig has no accelerometers)"), "\(accelerometer.stderr)")
        let directory = try TemporaryDirectory()
        let unwritable = try await Self.run(socket + ["snapshot", directory.file("missing/x.png")])
        #expect(unwritable.code == 1 && unwritable.stderr.contains("No such file or directory"), "\(unwritable.stderr)")
    }
}
