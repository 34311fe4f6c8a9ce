import FoldcamCore
import FoldcamIO
import Glibc

// foldcam-bench: figures for the decision core, and MJPG decoding (mjpeg). See docs/benchmarks.md.

let options: Options
do {
    let parsed = try CommandLineParser.parse(Array(CommandLine.arguments.dropFirst()), Options.spec)
    switch parsed.command {
    case "--help":
        print(UsageText.render(Options.spec))
        exit(0)
    case "mjpeg":
        let frames = try Options.frames(parsed)
        do {
            print(MJPEGBench.table(try MJPEGBench.run(frames: frames, rounds: 3)))
            exit(0)
        } catch {
            StandardError.write("foldcam-bench: \(error)\n")
            exit(1)
        }
    case "--print-large-rig":
        try parsed.finish()
        print(LargeRig.json())
        exit(0)
    default:
        options = try Options.parse(parsed)
    }
} catch {
    StandardError.write("foldcam-bench: \(error)\n")
    exit(2)
}

do {
    let report = try Bench.run(options)
    print(options.json ? report.json().prettyText : report.table())
} catch {
    StandardError.write("foldcam-bench: \(error)\n")
    exit(1)
}
