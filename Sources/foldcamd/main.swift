import FoldcamCore
import FoldcamDaemon
import FoldcamIO
import FoldcamPlatform
import Glibc

// foldcamd: the foldcam daemon. See `foldcamd --help`.

let usage = """
    usage: foldcamd [--config FILE] [--socket PATH] [--quiet]   serve the real cameras and sensors
           foldcamd --probe [--config FILE | --rig ID|FILE] [--json]
           foldcamd --simulate [--rig ID|FILE] [--sweep] [--cycles N] [--step-ms N] [--socket PATH] [--quiet]
           foldcamd scenario --rig ID|FILE --script FILE|-
           foldcamd --check-config [--config FILE | --rig ID|FILE] [--strict]
           foldcamd --list-rigs | --version | --help

      --simulate      serve a simulated rig (default: duo) on the socket; sensors and plug
                      state are moved with simulate.* requests (foldcamctl sim ...)
      --sweep         drive a demo fold cycle through every posture
      --cycles N      with --sweep: exit after N cycles (default: run until stopped)
      --step-ms N     milliseconds between sweep steps (default 150)
      --socket PATH   listen here (default: $FOLDCAM_SOCKET, systemd's socket, /run/foldcam/foldcam.sock
                      as root, else $XDG_RUNTIME_DIR/foldcam.sock)
      --quiet         do not print decisions on stdout
      --loopback NODE feed this v4l2loopback device (default: the config's loopbackDevice, or
                      the device whose card label is the config's loopbackLabel, "foldcam")
      --config FILE   daemon configuration (default /etc/foldcam/foldcam.json)
      scenario        apply a scripted list of inputs; print one JSON state per step
      --probe         list the cameras, IIO sensors and switches present and why each was
                      classified as it was, and each rig camera, hinge sensor, accelerometer
                      and switch as found, missing or failed; --json too. Exit 0 when the rig
                      has what it needs, 3 when something it needs is missing or failed
      --check-config  check the configuration and rig as the daemon would load them, then exit:
                      0 valid (warnings listed), 2 invalid; --strict makes warnings errors
    built-in rigs: \(RigPresets.ids.joined(separator: ", "))
    signals: SIGTERM/SIGINT stop cleanly; SIGHUP reloads the configuration and rig
    """

let log = Log()

/// Exit code 2: bad invocation or bad input (rig, scenario, config), with the reason on stderr.
func fail(_ message: String) -> Never {
    log.error(message)
    exit(2)
}

var arguments = CommandLineArguments(Array(CommandLine.arguments.dropFirst()))
do {
    if arguments.takeFlag("--help") || arguments.takeFlag("-h") {
        print(usage)
    } else if arguments.takeFlag("--version") {
        try arguments.finish()
        print("foldcamd \(BuildInfo.version) (revision \(BuildInfo.revision))")
    } else if arguments.takeFlag("--list-rigs") {
        for id in RigPresets.ids { print(id) }
    } else if arguments.takeSubcommand("scenario") {
        let rigSpec = try arguments.requireValue("--rig")
        let scriptPath = try arguments.requireValue("--script")
        try arguments.finish()
        try ScenarioCommand.run(rigSpec: rigSpec, scriptPath: scriptPath)
    } else if arguments.takeFlag("--probe") {
        var options = DaemonOptions()
        options.configPath = arguments.takeValue("--config")
        options.rig = arguments.takeValue("--rig")
        let json = arguments.takeFlag("--json")
        try arguments.finish()
        exit(try ProbeCommand.run(options, json: json))
    } else if arguments.takeFlag("--check-config") {
        var options = DaemonOptions()
        options.configPath = arguments.takeValue("--config")
        options.rig = arguments.takeValue("--rig")
        let strict = arguments.takeFlag("--strict")
        try arguments.finish()
        exit(ConfigCheck.run(options).report(strict: strict, log: log))
    } else {
        var options = DaemonOptions()
        options.simulate = arguments.takeFlag("--simulate")
        options.rig = arguments.takeValue("--rig")
        options.configPath = arguments.takeValue("--config")
        options.socketPath = arguments.takeValue("--socket")
        options.loopback = arguments.takeValue("--loopback")
        options.sweep = arguments.takeFlag("--sweep")
        options.sweepCycles = try arguments.takeInt("--cycles", in: 1...1_000_000)
        options.exitAfterSweep = options.sweepCycles != nil
        options.stepMilliseconds = try arguments.takeInt("--step-ms", in: 0...60_000) ?? 150
        options.printDecisions = !arguments.takeFlag("--quiet")
        try arguments.finish()
        if options.simulate && options.rig == nil && options.configPath == nil { options.rig = "duo" }
        exit(DaemonRunner(options: options, environment: ProcessEnvironment.current).run())
    }
} catch {
    fail("\(error)")
}
