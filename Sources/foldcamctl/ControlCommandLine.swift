import FoldcamClient
import FoldcamCore
import FoldcamIO

/// Everything foldcamctl accepts: `--help`, the man page check (Tests/FoldcamClientTests/
/// CommandLineDocsTests.swift) and the parser all read this table.
enum ControlCommandLine {
    /// Commands that talk to the daemon (they take --socket and --json).
    static let daemonCommands = [
        "status", "devices", "directions", "watch", "follow", "pin", "unpin", "rotation", "snapshot", "metrics",
        "sim hinge", "sim switch", "sim gravity", "sim accelerometer", "sim plug", "sim unplug", "sim busy", "sim sweep",
    ]

    /// Exit codes, one table for every command (docs: man/foldcamctl.1.scd, EXIT STATUS).
    enum Exit {
        static let ok: Int32 = 0
        static let failure: Int32 = 1
        static let badInput: Int32 = 2
        static let unreachable: Int32 = 3
    }

    static let spec = CommandLineSpec(
        program: "foldcamctl",
        summary: "Talks to foldcamd over its socket, and draws rigs.",
        commands: [
            CommandSpec("status", section: "talking to foldcamd",
                        help: "rig, mode, posture, hinges, viewed/pinned display, virtual camera source, readiness, directions per display"),
            CommandSpec("devices", section: "talking to foldcamd", help: "the cameras the daemon knows, with availability"),
            CommandSpec("directions", arguments: "[D]", section: "talking to foldcamd", help: "which cameras face each display's viewer (or D's only)"),
            CommandSpec("watch", arguments: "[TOPIC ...]", section: "talking to foldcamd",
                        help: "one line per change, live; waits for the daemon to start and reconnects when it restarts (topics: \(Topic.allCases.map(\.rawValue).joined(separator: ", ")); default all)"),
            CommandSpec("follow", section: "talking to foldcamd",
                        help: "apply the screens topic's rotation and power advice through the compositor's own tool (swaymsg, wlr-randr, kscreen-doctor, gdbus for GNOME, hyprctl), one command per change; prints each request and the answer"),
            CommandSpec("pin", arguments: "D", section: "talking to foldcamd",
                        help: "pin the viewed display to D (a kiosk's window is on D): held while foldcamctl runs (made again after a daemon restart), or with --persist kept across restarts until unpin"),
            CommandSpec("unpin", section: "talking to foldcamd", help: "end the persisted pin: the posture decides the viewed display again"),
            CommandSpec("rotation", arguments: "D DEG", section: "talking to foldcamd", help: "tell the daemon D's UI is rotated DEG degrees (0, 90, 180, 270)"),
            CommandSpec("snapshot", arguments: "OUT.png", section: "talking to foldcamd",
                        help: "the virtual camera's frame nearest CLOCK_MONOTONIC time NS (default now; kept 0.5 s), upright and unmirrored"),
            CommandSpec("metrics", section: "talking to foldcamd", help: "the daemon's metrics (Prometheus text, as in foldcam.prom)"),
            CommandSpec("sim hinge", arguments: "ID DEG", section: "moving a simulated daemon (foldcamd --simulate)", help: "set a hinge angle"),
            CommandSpec("sim switch", arguments: "lid closed|open | tabletMode on|off", section: "moving a simulated daemon (foldcamd --simulate)",
                        help: "set the lid or tablet-mode switch"),
            CommandSpec("sim gravity", arguments: "X Y Z", section: "moving a simulated daemon (foldcamd --simulate)", help: "the gravity vector (rig frame, m/s²)"),
            CommandSpec("sim accelerometer", arguments: "ID X Y Z", section: "moving a simulated daemon (foldcamd --simulate)", help: "one accelerometer's reading"),
            CommandSpec("sim plug", arguments: "CAM", section: "moving a simulated daemon (foldcamd --simulate)", help: "plug a camera in"),
            CommandSpec("sim unplug", arguments: "CAM", section: "moving a simulated daemon (foldcamd --simulate)", help: "unplug a camera"),
            CommandSpec("sim busy", arguments: "CAM on|off", section: "moving a simulated daemon (foldcamd --simulate)", help: "whether another program holds a camera"),
            CommandSpec("sim sweep", arguments: "on|off", section: "moving a simulated daemon (foldcamd --simulate)", help: "start or stop the demo fold cycle"),
            CommandSpec("rig render", arguments: "RIG", section: "looking at rigs (no daemon needed)",
                        help: "draw RIG (a preset id or a rig .json file) as SVG into FILE (.svg) or standard output (-)"),
            CommandSpec("rig show", arguments: "PRESET", section: "looking at rigs (no daemon needed)", help: "print a preset's JSON"),
            CommandSpec("rig list", section: "looking at rigs (no daemon needed)", help: "print the preset ids"),
            CommandSpec("report", section: "describing this machine (no daemon needed)",
                        help: "write what a device model needs (DMI, udev properties, V4L2 controls, IIO readings, switches, PipeWire cameras) as one text file, serial numbers and addresses redacted (docs/devices.md)"),
            CommandSpec("calibrate", section: "describing this machine (no daemon needed)",
                        help: "guided: fold the rig to closed, 90°, flat and tent; fit the hinge sensor's sign and offset and whether the accelerometer labels are swapped, and write the machine's model with those corrections to \(ModelDatabase.localDirectory) (root; docs/devices.md)"),
            CommandSpec("--version", section: "about foldcamctl", help: "print foldcamctl's version and git revision"),
            CommandSpec("--help", aliases: ["-h"], section: "about foldcamctl", help: "print this text"),
        ],
        options: [
            OptionSpec("--socket", kind: .value("PATH"), commands: daemonCommands, global: true,
                       help: "the daemon's socket (default: $FOLDCAM_SOCKET, \(FoldcamSocket.systemPath) as root or when it exists, else $XDG_RUNTIME_DIR/foldcam.sock)"),
            OptionSpec("--json", commands: daemonCommands, global: true,
                       help: "print the daemon's JSON (one line) instead of tables, and errors as a JSON object on stdout; watch prints the raw event lines"),
            OptionSpec("--display", kind: .value("D"), commands: ["directions"], help: "only display D"),
            OptionSpec("--compositor", kind: .value("NAME"), commands: ["follow"],
                       help: "\(Compositor.allCases.map(\.rawValue).joined(separator: "|")) (default: found from SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, XDG_CURRENT_DESKTOP, WAYLAND_DISPLAY)"),
            // One option for two commands: the parser finds an option by its name.
            OptionSpec("--output", kind: .repeated("NAME"), commands: ["directions", "follow", "calibrate"],
                       help: "directions: only the display on DRM output NAME (eDP-2); follow: D=OUTPUT, display D is the compositor's output OUTPUT (lower=eDP-2), for displays whose output the daemon does not publish; calibrate: the directory to write the model to (default \(ModelDatabase.localDirectory))"),
            OptionSpec("--dry-run", commands: ["follow", "calibrate"], help: "follow: print the commands without running them; calibrate: print the corrected model without writing it"),
            OptionSpec("--model", kind: .value("FILE"), commands: ["calibrate"],
                       help: "the model file to calibrate, or auto (default): the one foldcamd chooses for this machine by DMI"),
            OptionSpec("--force", commands: ["calibrate"], help: "replace a model file already in the output directory"),
            OptionSpec("--persist", commands: ["pin"], help: "keep the pin after foldcamctl exits and across daemon restarts, until unpin"),
            OptionSpec("--no-wait", commands: ["watch"], help: "fail at once when the daemon is not running instead of waiting for it"),
            OptionSpec("--at", kind: .value("NS"), commands: ["snapshot"], help: "the CLOCK_MONOTONIC time of the frame, in nanoseconds (default now)"),
            OptionSpec("--camera", kind: .value("ID"), commands: ["snapshot"], help: "the virtual camera ID's frame (default: the first configured)"),
            OptionSpec("--hinge", kind: .repeated("ID=DEG"), commands: ["rig render"], help: "draw hinge ID at DEG degrees (default: each hinge's rest angle)"),
            OptionSpec("-o", kind: .value("FILE"), commands: ["rig render", "report"], requiredBy: ["rig render"],
                       help: "where to write: for rig render a file name ending in \(RigCommand.writableExtensions.joined(separator: " or ")), for report one ending in \(ReportCommand.writableExtensions.joined(separator: " or ")) (default: standard output); - for standard output"),
        ],
        exitCodes: [
            ExitCode(Exit.ok, "success"),
            ExitCode(Exit.failure, "failure: the daemon refused or failed the call (e.g. not allowed, camera unavailable), or an output file could not be written"),
            ExitCode(Exit.badInput, "bad usage or bad input (an unknown option, command or name, a value the daemon rejects as invalid)"),
            ExitCode(Exit.unreachable, "the daemon is not running or cannot be reached"),
        ],
        notes: ["presets: \(RigPresets.ids.joined(separator: ", "))"]
    )
}
