import FoldcamClient
import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// foldcamctl's command-line conventions (docs: man/foldcamctl.1.scd): one exit-code table,
/// JSON errors, options in any position, --version, refusals of options and output names that
/// would do nothing or the wrong thing, and watch waiting for the daemon.
@Suite(.serialized)
struct CommandLineTests {
    static let repository: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    static func run(_ arguments: [String]) async throws -> ControlToolTests.Outcome {
        try await ControlToolTests.run(arguments)
    }

    /// The one JSON line a --json failure prints on stdout.
    static func errorObject(_ outcome: ControlToolTests.Outcome) throws -> JSONValue {
        let lines = outcome.stdout.split(separator: "\n")
        try #require(lines.count == 1, "stdout: \(outcome.stdout)")
        let parsed = try JSONParser.parse(String(lines[0]))
        return try #require(parsed["error"], "no error member: \(outcome.stdout)")
    }

    @Test func everyKindOfFailureHasItsExitCodeAndAJSONErrorObject() async throws {
        let daemon = try await SimulatedDaemon()
        let absent = try TemporaryDirectory().file("absent.sock")
        let cases: [(arguments: [String], code: Int32, errorCode: String)] = [
            (["--socket", absent, "status"], 3, "daemonNotRunning"),                   // unreachable
            (["--socket", daemon.socketPath, "frobnicate"], 2, "usage"),               // bad usage
            (["--socket", daemon.socketPath, "rotation", "outer", "45"], 2, "usage"),  // bad input, caught locally
            (["--socket", daemon.socketPath, "pin", "nowhere"], 2, "invalidParams"),   // bad input, caught by the daemon
            (["--socket", daemon.socketPath, "snapshot", "--at", "1", try TemporaryDirectory().file("old.png")], 1, "unavailable"),  // the daemon failed it
        ]
        for (arguments, code, errorCode) in cases {
            let plain = try await Self.run(arguments)
            #expect(plain.code == code, "\(arguments): \(plain.stderr)")
            #expect(plain.stdout.isEmpty, "\(arguments): a plain failure prints nothing on stdout: \(plain.stdout)")
            #expect(plain.stderr.hasPrefix("foldcamctl: "), "\(arguments): \(plain.stderr)")

            let json = try await Self.run(["--json"] + arguments)
            #expect(json.code == code, "--json \(arguments): \(json.stderr)")
            let error = try Self.errorObject(json)
            #expect(error["code"] == .string(errorCode), "--json \(arguments): \(json.stdout)")
            #expect(error["exitCode"] == .int(Int(code)))
            #expect(error["message"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func globalOptionsWorkInAnyPosition() async throws {
        let daemon = try await SimulatedDaemon()
        for arguments in [["--json", "--socket", daemon.socketPath, "status"], ["status", "--json", "--socket", daemon.socketPath],
                          ["--socket", daemon.socketPath, "status", "--json"], ["--socket=\(daemon.socketPath)", "status", "--json"]] {
            let outcome = try await Self.run(arguments)
            #expect(outcome.code == 0, "\(arguments): \(outcome.stderr)")
            let parsed = try JSONParser.parse(String(outcome.stdout.split(separator: "\n").first ?? ""))
            #expect(parsed["daemon"]?["rig"] == .string("duo"), "\(arguments): \(outcome.stdout)")
        }
        // Options between positionals; a negative number is a positional, not an option.
        let sim = try await Self.run(["sim", "gravity", "--socket", daemon.socketPath, "0", "--json", "-9.8", "0"])
        #expect(sim.code == 0, "\(sim.stderr)")
        #expect((try? JSONParser.parse(String(sim.stdout.split(separator: "\n").first ?? ""))) != nil, "not JSON: \(sim.stdout)")

        for arguments in [["--bogus", "status"], ["status", "--bogus"]] {
            let outcome = try await Self.run(arguments)
            #expect(outcome.code == 2)
            #expect(outcome.stderr.contains("unknown option \"--bogus\""), "\(arguments): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("unknown command"), "\(arguments): \(outcome.stderr)")
        }
        let typo = try await Self.run(["--jsno", "status"])
        #expect(typo.stderr.contains("did you mean \"--json\"?"), "\(typo.stderr)")
    }

    @Test func versionNamesTheVersionFileAndARevision() async throws {
        let version = readTextFile(Self.repository + "/VERSION").split(separator: "\n").first.map(String.init) ?? "?"
        for program in ["foldcamctl", "foldcamd"] {
            let directory = try TemporaryDirectory()
            let child = try ChildProcess(executable: try Executables.path(of: program), arguments: ["--version"],
                                         stdoutPath: directory.file("out"), stderrPath: directory.file("err"))
            #expect(try await child.waitForExitCode(timeout: .seconds(20)) == 0)
            let line = child.stdout
            let prefix = "\(program) \(version) (revision "
            #expect(line.hasPrefix(prefix) && line.hasSuffix(")\n"), "\(program) --version: \(line)")
            let revision = line.dropFirst(prefix.count).dropLast(2)
            let hex = revision.hasSuffix("-dirty") ? revision.dropLast(6) : revision
            #expect(revision == "unknown" || (hex.count >= 7 && hex.allSatisfy(\.isHexDigit)), "\(program) --version: \(line)")
        }
    }

    @Test func optionsWithNoEffectAreRefusedNamingWhereTheyApply() async throws {
        let cases: [([String], String)] = [
            (["rig", "list", "--json"], "--json has no effect with \"rig list\""),
            (["directions", "--at", "5"], "--at has no effect with \"directions\"; it applies to \"snapshot\""),
            (["status", "--no-wait"], "--no-wait has no effect with \"status\"; it applies to \"watch\""),
            (["rig", "render", "duo", "-o", "-", "--socket", "/x"], "--socket has no effect with \"rig render\""),
            (["--version", "status"], "--version and status cannot be combined"),
            (["status", "--socket"], "--socket needs a value"),
        ]
        for (arguments, message) in cases {
            let outcome = try await Self.run(arguments)
            #expect(outcome.code == 2, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
    }

    @Test func renderRefusesAnOutputNameItCannotWriteTheFormatOf() async throws {
        let directory = try TemporaryDirectory()
        for name in ["rig.png", "rig.svg.txt", "rig"] {
            let path = directory.file(name)
            let outcome = try await Self.run(["rig", "render", "duo", "-o", path])
            #expect(outcome.code == 2, "\(name): \(outcome.stderr)")
            #expect(outcome.stderr.contains("writes SVG only") && outcome.stderr.contains("FILE.svg"), "\(outcome.stderr)")
            #expect(access(path, F_OK) != 0, "\(name) was created anyway")
        }
        let svg = directory.file("rig.SVG")
        let written = try await Self.run(["rig", "render", "duo", "-o", svg])
        #expect(written.code == 0, "\(written.stderr)")
        #expect(readTextFile(svg).contains("<svg"))
        let snapshot = try await Self.run(["snapshot", directory.file("frame.jpg")])
        #expect(snapshot.code == 2 && snapshot.stderr.contains("writes PNG only"), "\(snapshot.stderr)")
    }

    @Test func watchWaitsForTheDaemonToStartUnlessToldNotTo() async throws {
        let daemon = try await SimulatedDaemon(started: false)
        let noWait = try await Self.run(["--socket", daemon.socketPath, "watch", "--no-wait"])
        #expect(noWait.code == 3, "\(noWait.stderr)")
        #expect(noWait.stderr.contains("daemon not running"))

        let directory = try TemporaryDirectory()
        let watch = try ChildProcess(
            executable: try Executables.path(of: "foldcamctl"), arguments: ["watch", "posture", "--socket", daemon.socketPath],
            stdoutPath: directory.file("out"), stderrPath: directory.file("err"))
        defer { watch.kill(SIGKILL) }
        func waitFor(_ text: String, in stream: () -> String) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while !stream().contains(text) {
                guard ContinuousClock.now < deadline, !watch.hasExited else {
                    throw HarnessError("watch never printed \(text):\n\(watch.stdout)\n\(watch.stderr)")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        // It has tried, found nothing and said so, and is still running: only now start the daemon.
        try await waitFor("waiting for it", in: { watch.stderr })
        #expect(!watch.hasExited)
        try await daemon.start()
        try await waitFor("posture        open; fold 180°", in: { watch.stdout })
        #expect(watch.stderr.contains("connected to \(daemon.socketPath)"), "\(watch.stderr)")
        try await daemon.setHinge(90)
        try await waitFor("halfOpen; fold 90°", in: { watch.stdout })
        watch.kill(SIGINT)
        _ = try await watch.waitForExitCode(timeout: .seconds(10))
    }
}
