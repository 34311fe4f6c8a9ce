import FoldcamTestSupport
import Glibc
import Testing

/// foldcamd refuses, at once and with exit status 2, options that would have no effect in the
/// mode chosen, naming what to add or where the option applies (before this, `--simulate
/// --cycles 1` without `--sweep` ran forever on the default socket).
@Suite("foldcamd refuses options with no effect")
struct DaemonCommandLineTests {
    static func run(_ arguments: [String]) throws -> (code: Int32?, stdout: String, stderr: String) {
        let directory = try TemporaryDirectory()
        let child = try ChildProcess(executable: try Executables.path(of: "foldcamd"), arguments: arguments,
                                     stdoutPath: directory.file("out"), stderrPath: directory.file("err"))
        let code = child.exitCode(timeout: .seconds(30))
        if code == nil { child.kill(SIGKILL) }
        return (code, child.stdout, child.stderr)
    }

    @Test(arguments: [
        (["--cycles", "1"], "--cycles has no effect without --simulate --sweep: add them"),
        (["--simulate", "--cycles", "1"], "--cycles has no effect without --sweep: add --sweep"),
        (["--sweep"], "--sweep has no effect without --simulate: add --simulate"),
        (["--step-ms", "10"], "--step-ms has no effect without --simulate: add --simulate"),
        (["--probe", "--socket", "/tmp/x.sock"], "--socket has no effect in --probe mode"),
        (["--check-config", "--quiet"], "--quiet has no effect in --check-config mode"),
        (["--check-config", "--json"], "--json has no effect in --check-config mode; it applies to --probe mode"),
        (["--json"], "--json has no effect without --probe: add --probe"),
        (["scenario", "--rig", "duo", "--script", "-", "--config", "/etc/x.json"], "--config has no effect with \"scenario\""),
        (["scenario", "--rig", "duo"], "\"scenario\" needs --script FILE|-"),
        (["--list-rigs", "--rig", "duo"], "--rig has no effect in --list-rigs mode"),
        (["--version", "--simulate"], "--version and --simulate cannot be combined"),
        (["--probe", "--check-config"], "--probe and --check-config cannot be combined"),
        (["--simulat"], "unknown option \"--simulat\"; did you mean \"--simulate\"?"),
        (["serve"], "unknown command \"serve\""),
    ])
    func refused(arguments: [String], message: String) throws {
        let outcome = try Self.run(arguments)
        #expect(outcome.code == 2, "foldcamd \(arguments): exit \(String(describing: outcome.code)): \(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "foldcamd \(arguments): \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test func helpIsGeneratedAndListsEveryMode() throws {
        let outcome = try Self.run(["--bogus", "--help"])
        #expect(outcome.code == 0, "--help wins over the rest of the line: \(outcome.stderr)")
        for text in ["usage: foldcamd [--config FILE]", "foldcamd --simulate", "foldcamd --probe", "foldcamd --check-config",
                     "foldcamd scenario --rig ID|FILE --script FILE|-", "[--cycles N]", "exit codes:"] {
            #expect(outcome.stdout.contains(text), "--help lacks \(text):\n\(outcome.stdout)")
        }
    }
}
