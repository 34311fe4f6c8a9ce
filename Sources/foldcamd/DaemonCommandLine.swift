import FoldcamDaemon
import FoldcamCore
import FoldcamIO

/// Everything foldcamd accepts: modes, options and which modes each option applies to. The
/// parser refuses an option outside its modes, `--help` is generated from this table, and
/// Tests/FoldcamDaemonTests/CommandLineDocsTests.swift checks the man page against it.
enum DaemonCommandLine {
    static let serve = "serve"
    static let simulate = "--simulate"
    static let probe = "--probe"
    static let checkConfig = "--check-config"
    static let scenario = "scenario"
    /// Modes that run a daemon on a socket.
    static let serving = [serve, simulate]
    /// Modes that load the configuration and rig.
    static let configured = [serve, simulate, probe, checkConfig]

    static let spec = CommandLineSpec(
        program: "foldcamd",
        summary: "The foldcam daemon: which cameras face each display's viewer on rigs whose displays and cameras move.",
        commands: [
            CommandSpec(serve, section: "modes", help: "serve the real cameras and sensors on the socket"),
            CommandSpec(simulate, section: "modes",
                        help: "serve a simulated rig (default: duo) on the socket; sensors and plug state are moved with simulate.* requests (foldcamctl sim ...)"),
            CommandSpec(probe, section: "modes",
                        help: "list the cameras, IIO sensors and switches present and why each was classified as it was, and each rig camera, hinge sensor, accelerometer and switch as found, missing or failed; exit 0 when the rig has what it needs, 3 when something it needs is missing or failed"),
            CommandSpec(checkConfig, section: "modes",
                        help: "check the configuration and rig as the daemon would load them, then exit: 0 valid (warnings listed), 2 invalid"),
            CommandSpec(scenario, section: "modes", help: "apply a scripted list of inputs (FILE, or - for standard input); print one JSON state per step"),
            CommandSpec("--list-rigs", section: "modes", help: "print the ids of the built-in rigs"),
            CommandSpec("--version", section: "modes", help: "print the version and the git revision the binary was built from"),
            CommandSpec("--help", aliases: ["-h"], section: "modes", help: "print this text"),
        ],
        options: [
            OptionSpec("--config", kind: .value("FILE"), commands: configured,
                       help: "daemon configuration (default \(DaemonOptions.defaultConfigPath), used when it exists and neither --simulate nor --rig is given)"),
            OptionSpec("--rig", kind: .value("ID|FILE"), commands: configured + [scenario], requiredBy: [scenario],
                       help: "a built-in rig id or a rig file (a path contains / or ends in .json); overrides the configuration's rig"),
            OptionSpec("--socket", kind: .value("PATH"), commands: serving,
                       help: "listen here (default: $FOLDCAM_SOCKET, systemd's socket, /run/foldcam/foldcam.sock as root, else $XDG_RUNTIME_DIR/foldcam.sock)"),
            OptionSpec("--loopback", kind: .value("NODE"), commands: serving,
                       help: "feed this v4l2loopback device (default: the configuration's loopbackDevice, or the device whose card label is its loopbackLabel, \"foldcam\")"),
            OptionSpec("--quiet", commands: serving, help: "do not print decisions on stdout"),
            OptionSpec("--sweep", commands: [simulate], help: "drive a demo fold cycle through every posture"),
            OptionSpec("--cycles", kind: .value("N"), commands: [simulate], requires: "--sweep",
                       help: "exit after N sweep cycles (default: run until stopped)"),
            // Not tied to --sweep: a sweep started later (foldcamctl sim sweep on) steps at this pace too.
            OptionSpec("--step-ms", kind: .value("N"), commands: [simulate],
                       help: "milliseconds between sweep steps, of --sweep or of a sweep started later with simulate.sweep (default 150)"),
            OptionSpec("--json", commands: [probe], help: "print the probe's findings as JSON"),
            OptionSpec("--strict", commands: [checkConfig], help: "make warnings errors (exit 2)"),
            OptionSpec("--script", kind: .value("FILE|-"), commands: [scenario], requiredBy: [scenario], help: "the scenario script"),
        ],
        defaultCommand: serve,
        exitCodes: [
            ExitCode(0, "success, or a clean stop"),
            ExitCode(1, "the daemon could not start or failed, or --probe could not run"),
            ExitCode(2, "bad invocation or bad input: an unknown option, an option with no effect in the mode, an invalid rig, scenario or configuration"),
            ExitCode(3, "--probe: something the rig needs is missing or failed"),
        ],
        notes: [
            "built-in rigs: \(RigPresets.ids.joined(separator: ", "))",
            "signals: SIGTERM/SIGINT stop cleanly; SIGHUP reloads the configuration and rig",
        ]
    )
}
