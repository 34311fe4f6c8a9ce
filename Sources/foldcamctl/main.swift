import Glibc

// foldcamctl: the foldcam control tool. Commands run one job and exit; see `foldcamctl --help`
// (generated from ControlCommandLine.spec, which also holds the exit codes).
// No Foundation: a socket client needs none of it, and it would link ICU in (tens of MB).

exit(await ControlTool.run(Array(CommandLine.arguments.dropFirst())))
