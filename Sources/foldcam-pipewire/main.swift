import FoldcamCore
import FoldcamIO
import Glibc

// foldcam-pipewire: the user-session companion that publishes foldcam's virtual cameras as
// PipeWire camera nodes (docs/pipewire.md). Glibc for exit(3) only.

let log = Log()
let defaultConfig = "/etc/foldcam/foldcam.json"
let usage = """
    usage: foldcam-pipewire [--rig PRESET|PATH | --config PATH] [--socket PATH] [--link-timeout SECONDS] [--stall-timeout SECONDS] | --version
      the rig foldcamd runs: --rig, or the "rig" of its configuration (default \(defaultConfig))
      --link-timeout: how long a camera node may take to agree a format, then to deliver its first
      frame, before it counts as one that cannot feed (default \(Int(InputTimeouts().link)))
      --stall-timeout: how long a camera node that delivered may then send no frame before it
      counts as one that cannot feed (default \(Int(InputTimeouts().stall)))
    """
var rigSpec: String?
var configPath: String?
var socketPath: String?
var timeouts = InputTimeouts()
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let argument = arguments.popFirst() {
    let options = ["--rig", "--config", "--socket", "--link-timeout", "--stall-timeout"]
    if options.contains(argument) && arguments.isEmpty {
        log.error("foldcam-pipewire: \(argument) needs a value\n\(usage)")
        exit(2)
    }
    switch argument {
    case "--rig": rigSpec = arguments.popFirst()
    case "--config": configPath = arguments.popFirst()
    case "--socket": socketPath = arguments.popFirst()
    case "--link-timeout", "--stall-timeout":
        let text = arguments.popFirst()!
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0.1, seconds <= 600 else {
            log.error("foldcam-pipewire: \(argument) \(ClientText.quoted(text)): give seconds from 0.1 to 600\n\(usage)")
            exit(2)
        }
        if argument == "--link-timeout" { timeouts.link = seconds } else { timeouts.stall = seconds }
    case "--help", "-h":
        print(usage)
        exit(0)
    case "--version":
        print("foldcam-pipewire \(BuildInfo.version) (revision \(BuildInfo.revision))")
        exit(0)
    default:
        log.error("foldcam-pipewire: unknown argument \(ClientText.quoted(argument))\(NearestName.hint(for: argument, among: options + ["--help", "--version"]))\n\(usage)")
        exit(2)
    }
}
// Exit 2: bad command line, configuration or rig (the user unit does not restart on it); exit 1:
// PipeWire failed or went away (the unit starts again).
let rig: Rig
do {
    var modelRig: Rig?
    if rigSpec == nil {
        let path = configPath ?? defaultConfig
        let text = try RigLoader.readText(path, what: "foldcamd configuration (give --rig to name the rig instead)")
        do {
            rigSpec = try DaemonConfig.decode(json: text).rig
        } catch {
            throw RigLoader.LoadError(description: "\(path) is not a valid configuration:\n\(error)")
        }
        // The same rig foldcamd loads: "auto" resolved as it does, a relative path taken
        // from the configuration's directory.
        if rigSpec == DaemonConfig.automaticRig {
            switch try AutomaticRig.resolve(configPath: path) {
            case let .file(local)?: rigSpec = local
            case let .model(selection)?:
                guard let found = selection.rig else { throw RigLoader.LoadError(description: AutomaticRig.nothingFound(configPath: path, selection)) }
                modelRig = found
            case nil: break
            }
        } else if let spec = rigSpec, RigPresets.json(spec) == nil, !spec.hasPrefix("/"), !spec.hasPrefix(RigLoader.modelPrefix) {
            rigSpec = String(AutomaticRig.localFile(besides: path).dropLast(AutomaticRig.fileName.count)) + spec
        }
    }
    rig = try modelRig ?? RigLoader.load(rigSpec!)
} catch {
    log.error("foldcam-pipewire: \(error)")
    exit(2)
}
do {
    try await Companion(rig: rig, socketPath: socketPath, timeouts: timeouts, log: log).run()
} catch {
    log.error("foldcam-pipewire: \(error)")
    exit(1)
}
