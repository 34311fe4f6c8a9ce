import FoldcamIO
import Testing

/// The shared parser against a small spec shaped like foldcamd's (modes chosen by flags, a
/// default mode, a word command) and foldcamctl's (global options, two-word commands).
struct CommandLineParserTests {
    static let spec = CommandLineSpec(
        program: "tool",
        summary: "A test tool.",
        commands: [
            CommandSpec("serve", help: "the default"),
            CommandSpec("--simulate", help: "pretend"),
            CommandSpec("rig render", arguments: "RIG", help: "draw"),
            CommandSpec("rig list", help: "list"),
            CommandSpec("--help", aliases: ["-h"], help: "help"),
        ],
        options: [
            OptionSpec("--socket", kind: .value("PATH"), commands: ["serve", "--simulate"], global: true, help: "where"),
            OptionSpec("--sweep", commands: ["--simulate"], help: "sweep"),
            OptionSpec("--cycles", kind: .value("N"), commands: ["--simulate"], requires: "--sweep", help: "cycles"),
            OptionSpec("--hinge", kind: .repeated("ID=DEG"), commands: ["rig render"], help: "angle"),
            OptionSpec("-o", kind: .value("FILE"), commands: ["rig render"], requiredBy: ["rig render"], help: "output"),
        ],
        defaultCommand: "serve",
        exitCodes: [ExitCode(0, "ok"), ExitCode(2, "bad usage")]
    )

    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try CommandLineParser.parse(arguments, spec)
    }

    static func error(_ arguments: [String]) -> String {
        do {
            _ = try parse(arguments)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func optionsAnywhereWithValuesInEitherSpelling() throws {
        for arguments in [["--simulate", "--socket", "/s"], ["--socket", "/s", "--simulate"], ["--socket=/s", "--simulate"]] {
            let parsed = try Self.parse(arguments)
            #expect(parsed.command == "--simulate")
            #expect(parsed.value("--socket") == "/s")
        }
        var render = try Self.parse(["rig", "--hinge", "a=1", "render", "-o", "-", "-5", "--hinge", "b=2"])
        #expect(render.command == "rig render")
        #expect(render.values("--hinge") == ["a=1", "b=2"])
        #expect(render.value("-o") == "-")
        #expect(render.takePositional() == "-5", "a negative number is an argument, not an option")
        try render.finish()
        var ended = try Self.parse(["rig", "render", "-o", "x.svg", "--", "--odd-name"])
        #expect(ended.takePositional() == "--odd-name")
    }

    @Test func theDefaultModeAndHelp() throws {
        #expect(try Self.parse([]).command == "serve")
        #expect(try Self.parse(["--socket", "/s"]).command == "serve")
        #expect(try Self.parse(["--bogus", "-h"]).command == "--help", "help wins over everything else on the line")
    }

    @Test func refusalsNameTheProblemAndTheRemedy() {
        #expect(Self.error(["--bogus"]) == "unknown option \"--bogus\" (see --help)")
        #expect(Self.error(["--simulat"]).contains("did you mean \"--simulate\"?"))
        #expect(Self.error(["--cycles", "1"]) == "--cycles has no effect without --simulate --sweep: add them (see --help)")
        #expect(Self.error(["--simulate", "--cycles", "1"]) == "--cycles has no effect without --sweep: add --sweep (see --help)")
        #expect(Self.error(["--sweep"]) == "--sweep has no effect without --simulate: add --simulate (see --help)")
        #expect(Self.error(["rig", "list", "--socket", "/s"]).hasPrefix("--socket has no effect with \"rig list\"; it applies to"))
        #expect(Self.error(["--simulate", "--socket"]) == "--socket needs a value (PATH)")
        #expect(Self.error(["--simulate", "--socket", "--sweep"]) == "--socket needs a value (PATH)")
        #expect(Self.error(["--simulate", "--socket", "a", "--socket", "b"]) == "--socket given more than once")
        #expect(Self.error(["--simulate", "--sweep=yes"]) == "--sweep takes no value")
        #expect(Self.error(["rig", "render", "duo"]) == "\"rig render\" needs -o FILE (see --help)")
        #expect(Self.error(["rig"]) == "rig: expected render or list (see --help)")
        #expect(Self.error(["rig", "rendr"]).hasPrefix("unknown rig command \"rendr\"; did you mean \"render\"?"))
        #expect(Self.error(["lits"]).hasPrefix("unknown command \"lits\""))
        #expect(Self.error(["--simulate", "rig", "list"]) == "--simulate and rig list cannot be combined (see --help)")
    }

    @Test func leftoverArgumentsAreReported() throws {
        let parsed = try Self.parse(["rig", "list", "extra"])
        #expect(throws: UsageError.self) { try parsed.finish() }
    }

    @Test func usageIsGeneratedFromTheTable() {
        let text = UsageText.render(Self.spec)
        // Every declared option and command appears, with where it applies.
        for option in Self.spec.options { #expect(text.contains(option.synopsis), "\(option.name) missing:\n\(text)") }
        for command in Self.spec.commands where command.name != "serve" { #expect(text.contains(command.name), "\(command.name) missing:\n\(text)") }
        #expect(text.contains("rig render [--hinge ID=DEG ...] -o FILE RIG"), "\(text)")
        #expect(text.contains("[--cycles N]"), "\(text)")
        #expect(text.contains("--help, -h"), "\(text)")
        #expect(text.contains("exit codes:\n  0   ok\n  2   bad usage"), "\(text)")
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 100 }, "a line is wider than 100 columns:\n\(text)")
    }
}
