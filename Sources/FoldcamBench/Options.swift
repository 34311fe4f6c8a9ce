/// Command-line options.
struct Options {
    /// Timed calls per figure.
    var iterations = 200_000
    /// Recomputes between the two heap readings (the target is stated over 1,000,000).
    var heapIterations = 1_000_000
    var json = false
    var printLargeRig = false
    var help = false

    /// Untimed calls before each figure: a tenth of the timed ones.
    var warmUp: Int { max(100, iterations / 10) }

    /// The publish reference costs tens of recomputes per call, so it gets a tenth of the calls.
    var publishIterations: Int { max(1000, iterations / 10) }
    var publishWarmUp: Int { max(100, publishIterations / 10) }

    static let usage = """
        usage: foldcam-bench [--iterations N] [--heap-iterations N] [--json]
               foldcam-bench --print-large-rig

        Times the decision core (FoldEngine) on the duo preset and on a generated large rig
        (8 panels in a chain, 16 cameras, 6 displays) and checks heap growth. Build it in release:
          swift run -c release foldcam-bench

          --iterations N        timed calls per figure (default 200000; warm-up is a tenth;
                        the publish reference gets a tenth of N, at least 1000)
          --heap-iterations N   full recomputes between the heap readings (default 1000000; 0 skips)
          --json                print the figures as one JSON object instead of a table
          --print-large-rig     print the large rig's JSON document and exit
        Progress goes to stderr. Missed targets are reported, not errors: the exit status is
        non-zero only when the benchmark itself fails (1) or the arguments are wrong (2).
        """

    static func parse(_ arguments: [String]) throws(BenchError) -> Options {
        var options = Options()
        var rest = arguments[...]
        func count(_ flag: String, minimum: Int) throws(BenchError) -> Int {
            guard let text = rest.popFirst() else { throw BenchError("\(flag) needs a number") }
            let digits = text.filter { $0 != "_" && $0 != "," }
            guard let value = Int(digits), value >= minimum else {
                throw BenchError("\(flag): \"\(text)\" is not a whole number >= \(minimum)")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--iterations": options.iterations = try count(argument, minimum: 1)
            case "--heap-iterations": options.heapIterations = try count(argument, minimum: 0)
            case "--json": options.json = true
            case "--print-large-rig": options.printLargeRig = true
            case "-h", "--help": options.help = true
            default: throw BenchError("unknown argument \"\(argument)\"")
            }
        }
        return options
    }
}
