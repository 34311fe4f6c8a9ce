import FoldcamCore
import FoldcamIO
import Foundation

// foldcamctl: the foldcam control tool. Subcommands run one job and exit; see `foldcamctl --help`.

let usage = """
    usage: foldcamctl rig render RIG [--hinge ID=DEG ...] -o FILE.svg|-
           foldcamctl rig show PRESET
           foldcamctl rig list
           foldcamctl --help

      rig render   draw RIG (a preset id or a rig .json file) at the given hinge angles as SVG,
                   from two opposite sides, with each display's forward/backward cameras;
                   hinges not named keep their initial angle; "-o -" writes to stdout
      rig show     print a preset's JSON (a starting point for your own rig file)
      rig list     print the preset ids
    presets: \(RigPresets.ids.joined(separator: ", "))
    exit codes: 0 success, 1 cannot write output, 2 bad usage or bad input
    """

let log = Log()
var arguments = CommandLineArguments(Array(CommandLine.arguments.dropFirst()))
do {
    if arguments.isEmpty {
        throw CommandLineArguments.UsageError(description: "no command given\n\(usage)")
    } else if arguments.takeFlag("--help") || arguments.takeFlag("-h") {
        print(usage)
    } else if arguments.takeSubcommand("rig") {
        try RigCommand.run(&arguments)
    } else {
        throw CommandLineArguments.UsageError(description: "unknown command (see --help)")
    }
} catch let error as RigCommand.OutputError {
    log.error("\(error)")
    exit(1)
} catch {
    log.error("\(error)")
    exit(2)
}
