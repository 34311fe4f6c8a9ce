import FoldcamCore
import Foundation

// foldcamctl: the foldcam control tool. Subcommands run one job and exit; see `foldcamctl --help`.
// Exit codes: 0 success, 1 daemon absent / unreachable (or output not writable), 2 bad usage or
// bad input, 3 the daemon refused or failed the call.

if CommandLine.arguments.dropFirst().elementsEqual(["--version"]) {
    print("foldcamctl \(BuildInfo.version) (revision \(BuildInfo.revision))")
    exit(0)
}
exit(await ControlTool.run(Array(CommandLine.arguments.dropFirst())))
