import FoldcamCore
import FoldcamDaemon
import FoldcamIO
import FoldcamPlatform
import Glibc

// foldcamd: the foldcam daemon. See `foldcamd --help` (generated from DaemonCommandLine.spec).

let log = Log()

/// Exit code 2: bad invocation or bad input (rig, scenario, config), with the reason on stderr.
func fail(_ message: String) -> Never {
    log.error(message)
    exit(2)
}

/// The options the daemon-running and configuration-reading modes share.
func daemonOptions(_ arguments: ParsedArguments) throws(UsageError) -> DaemonOptions {
    var options = DaemonOptions()
    options.simulate = arguments.command == DaemonCommandLine.simulate
    options.configPath = arguments.value("--config")
    options.rig = arguments.value("--rig")
    options.socketPath = arguments.value("--socket")
    options.loopback = arguments.value("--loopback")
    options.sweep = arguments.flag("--sweep")
    options.sweepCycles = try arguments.int("--cycles", in: 1...1_000_000)
    options.exitAfterSweep = options.sweepCycles != nil
    options.stepMilliseconds = try arguments.int("--step-ms", in: 0...60_000) ?? 150
    options.printDecisions = !arguments.flag("--quiet")
    return options
}

do {
    let arguments = try CommandLineParser.parse(Array(CommandLine.arguments.dropFirst()), DaemonCommandLine.spec)
    try arguments.finish()
    switch arguments.command {
    case "--help":
        print(UsageText.render(DaemonCommandLine.spec))
    case "--version":
        print("foldcamd \(BuildInfo.version) (revision \(BuildInfo.revision))")
    case "--list-rigs":
        for id in RigPresets.ids { print(id) }
    case DaemonCommandLine.scenario:
        try ScenarioCommand.run(rigSpec: try arguments.requiredValue("--rig"), scriptPath: try arguments.requiredValue("--script"))
    case DaemonCommandLine.probe:
        exit(try ProbeCommand.run(try daemonOptions(arguments), json: arguments.flag("--json")))
    case DaemonCommandLine.checkConfig:
        exit(ConfigCheck.run(try daemonOptions(arguments)).report(strict: arguments.flag("--strict"), log: log))
    default:
        var options = try daemonOptions(arguments)
        if options.simulate && options.rig == nil && options.configPath == nil { options.rig = "duo" }
        exit(DaemonRunner(options: options, environment: ProcessEnvironment.current).run())
    }
} catch {
    fail("\(error)")
}
