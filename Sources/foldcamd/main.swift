import FoldcamCore
import FoldcamIO
import Foundation

// foldcamd: the foldcam daemon. Subcommands run one job and exit; see `foldcamd --help`.

let usage = """
    usage: foldcamd --simulate [--rig ID|FILE] [--sweep] [--cycles N] [--step-ms N]
           foldcamd scenario --rig ID|FILE --script FILE|-
           foldcamd --check-config --rig ID|FILE
           foldcamd --list-rigs | --help

      --simulate      run on a simulated rig (default rig: duo) and print each decision
      --sweep         drive a demo fold cycle through every posture (with --simulate)
      --cycles N      stop after N sweep cycles (default: run until interrupted)
      --step-ms N     milliseconds between sweep steps (default 150)
      scenario        apply a scripted list of inputs; print one JSON state per step
      --check-config  validate a rig description and exit (0 valid, 2 invalid)
    built-in rigs: \(RigPresets.ids.joined(separator: ", "))
    """

let log = Log()

/// Exit code 2: bad invocation or bad input (rig, scenario), with the reason on stderr.
func fail(_ message: String) -> Never {
    log.error(message)
    exit(2)
}

var arguments = CommandLineArguments(Array(CommandLine.arguments.dropFirst()))
do {
    if arguments.takeFlag("--help") || arguments.takeFlag("-h") {
        print(usage)
    } else if arguments.takeFlag("--list-rigs") {
        for id in RigPresets.ids { print(id) }
    } else if arguments.takeSubcommand("scenario") {
        let rigSpec = try arguments.requireValue("--rig")
        let scriptPath = try arguments.requireValue("--script")
        try arguments.finish()
        try ScenarioCommand.run(rigSpec: rigSpec, scriptPath: scriptPath)
    } else if arguments.takeFlag("--check-config") {
        let rigSpec = try arguments.requireValue("--rig")
        try arguments.finish()
        let rig = try RigLoader.load(rigSpec)
        print("rig \(rig.id): valid (\(rig.panels.count) panels, \(rig.displays.count) displays, \(rig.cameras.count) cameras, \(rig.postures.count) postures)")
    } else if arguments.takeFlag("--simulate") {
        let rigSpec = arguments.takeValue("--rig") ?? "duo"
        let sweep = arguments.takeFlag("--sweep")
        let cycles = try arguments.takeInt("--cycles", in: 1...1_000_000)
        let stepMilliseconds = try arguments.takeInt("--step-ms", in: 0...60_000) ?? 150
        try arguments.finish()
        let rig = try RigLoader.load(rigSpec)
        Simulator(rig: rig, log: log).run(sweep: sweep, cycles: cycles, stepMilliseconds: stepMilliseconds)
    } else {
        fail("no mode given (real hardware mode is not available yet: use --simulate)\n\(usage)")
    }
} catch {
    fail("\(error)")
}
