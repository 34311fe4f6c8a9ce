import Foundation

// foldcamctl: the foldcam control tool. Subcommands run one job and exit; see `foldcamctl --help`.
// Exit codes: 0 success, 1 daemon absent / unreachable (or output not writable), 2 bad usage or
// bad input, 3 the daemon refused or failed the call.

exit(await ControlTool.run(Array(CommandLine.arguments.dropFirst())))
