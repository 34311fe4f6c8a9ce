import FoldcamIO

/// Command-line options.
struct Options {
    /// Timed calls per figure.
    var iterations = 200_000
    /// Recomputes between the two heap readings (the target is stated over 1,000,000).
    var heapIterations = 1_000_000
    var json = false

    /// Untimed calls before each figure: a tenth of the timed ones.
    var warmUp: Int { max(100, iterations / 10) }

    /// The publish reference costs tens of recomputes per call, so it gets a tenth of the calls.
    var publishIterations: Int { max(1000, iterations / 10) }
    var publishWarmUp: Int { max(100, publishIterations / 10) }

    static let spec = CommandLineSpec(
        program: "foldcam-bench",
        summary: "Times the decision core (FoldEngine) on the duo preset and on a generated large rig (8 panels in a chain, 16 cameras, 6 displays) and checks heap growth. Build it in release: swift run -c release foldcam-bench. Progress goes to stderr; missed targets are reported, not errors.",
        commands: [
            CommandSpec("run", section: "modes", help: "time every figure and print them"),
            CommandSpec("mjpeg", section: "modes", help: "time decoding an MJPG camera's frames at 720p and 1080p against ffmpeg on the same stream (needs ffmpeg and libturbojpeg0)"),
            CommandSpec("--print-large-rig", section: "modes", help: "print the large rig's JSON document and exit"),
            CommandSpec("--help", aliases: ["-h"], section: "modes", help: "print this text"),
        ],
        options: [
            OptionSpec("--iterations", kind: .value("N"), commands: ["run"],
                       help: "timed calls per figure (default 200000; warm-up is a tenth; the publish reference gets a tenth of N, at least 1000)"),
            OptionSpec("--heap-iterations", kind: .value("N"), commands: ["run"],
                       help: "full recomputes between the heap readings (default 1000000; 0 skips)"),
            OptionSpec("--json", commands: ["run"], help: "print the figures as one JSON object instead of a table"),
            OptionSpec("--frames", kind: .value("N"), commands: ["mjpeg"], help: "frames in each size's stream (default 120; each is decoded 3 times after one warm-up pass)"),
        ],
        defaultCommand: "run",
        exitCodes: [ExitCode(0, "the figures were printed"), ExitCode(1, "the benchmark itself failed"), ExitCode(2, "bad arguments")]
    )

    /// The options of a `run`; `--help` and `--print-large-rig` are read from `parsed.command`.
    static func parse(_ parsed: ParsedArguments) throws(UsageError) -> Options {
        try parsed.finish()
        var options = Options()
        options.iterations = try count(parsed, "--iterations", minimum: 1) ?? options.iterations
        options.heapIterations = try count(parsed, "--heap-iterations", minimum: 0) ?? options.heapIterations
        options.json = parsed.flag("--json")
        return options
    }

    /// `mjpeg`'s stream length.
    static func frames(_ parsed: ParsedArguments) throws(UsageError) -> Int {
        try parsed.finish()
        return try count(parsed, "--frames", minimum: 1) ?? 120
    }

    /// Digits may be grouped with _ or , (200_000).
    private static func count(_ parsed: ParsedArguments, _ name: String, minimum: Int) throws(UsageError) -> Int? {
        guard let text = parsed.value(name) else { return nil }
        guard let value = Int(text.filter { $0 != "_" && $0 != "," }), value >= minimum else {
            throw UsageError("\(name): \"\(text)\" is not a whole number >= \(minimum)")
        }
        return value
    }
}
