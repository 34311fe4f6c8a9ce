import Foundation

// foldcamctl: the foldcam control tool. Commands run one job and exit; see `foldcamctl --help`
// (generated from ControlCommandLine.spec, which also holds the exit codes).

exit(await ControlTool.run(Array(CommandLine.arguments.dropFirst())))
