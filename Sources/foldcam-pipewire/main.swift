import FoldcamIO
import Glibc

// foldcam-pipewire: the user-session companion that publishes foldcam's virtual cameras as
// PipeWire camera nodes (docs/pipewire.md). Glibc for exit(3) only.

let log = Log()
let usage = "usage: foldcam-pipewire --rig PRESET|PATH [--socket PATH]"
var rigSpec: String?
var socketPath: String?
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let argument = arguments.popFirst() {
    switch argument {
    case "--rig": rigSpec = arguments.popFirst()
    case "--socket": socketPath = arguments.popFirst()
    case "--help":
        print(usage)
        exit(0)
    default:
        log.error("foldcam-pipewire: unknown argument \"\(argument)\"\n\(usage)")
        exit(2)
    }
}
guard let rigSpec else {
    log.error("foldcam-pipewire: --rig is required: the rig foldcamd runs (its cameras' \"pipewire\" matches name the camera nodes)\n\(usage)")
    exit(2)
}
do {
    let rig = try RigLoader.load(rigSpec)
    try await Companion(rig: rig, socketPath: socketPath, log: log).run()
} catch {
    log.error("foldcam-pipewire: \(error)")
    exit(1)
}
