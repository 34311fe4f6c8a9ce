import FoldcamCore
import FoldcamIO
import Glibc

// foldcam-bench: figures for the decision core. See docs/benchmarks.md.

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    StandardError.write("foldcam-bench: \(error)\n\n\(Options.usage)\n")
    exit(2)
}
if options.help {
    print(Options.usage)
    exit(0)
}
if options.printLargeRig {
    print(LargeRig.json())
    exit(0)
}

do {
    let report = try Bench.run(options)
    print(options.json ? report.json().prettyText : report.table())
} catch {
    StandardError.write("foldcam-bench: \(error)\n")
    exit(1)
}
