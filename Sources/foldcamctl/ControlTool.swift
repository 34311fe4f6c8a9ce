import FoldcamClient
import FoldcamCore
import FoldcamIO
import Foundation

/// Reads the global options, runs one subcommand, and turns its outcome into an exit code.
enum ControlTool {
    static let usage = """
        usage: foldcamctl [--socket PATH] [--json] COMMAND ...

        talking to foldcamd:
          status                          rig, mode, posture, hinges, viewed/pinned display,
                                          virtual camera source, readiness, directions per display
          devices                         the cameras the daemon knows, with availability
          directions [--display D]        which cameras face each display's viewer (or D's only)
          watch [TOPIC ...]               one line per change, live; reconnects when the daemon restarts
                                          (topics: \(Topic.allCases.map(\.rawValue).joined(separator: ", ")); default all)
          pin [--persist] D | unpin       pin the viewed display to D (a kiosk's window is on D): held
                                          while foldcamctl runs, or with --persist kept across
                                          restarts until unpin
          rotation D DEG                  tell the daemon D's UI is rotated DEG (0, 90, 180, 270)
          snapshot [--at NS] OUT.png      the virtual camera's frame nearest CLOCK_MONOTONIC time NS
                                          (default now; kept 0.5 s), upright and unmirrored
          metrics                         the daemon's metrics (Prometheus text, as in foldcam.prom)
          sim hinge ID DEG                simulated daemon only: set a hinge angle
          sim switch lid closed|open      ... the lid switch
          sim switch tabletMode on|off    ... the tablet-mode switch
          sim gravity X Y Z               ... the gravity vector (rig frame, m/s²)
          sim accelerometer ID X Y Z      ... one accelerometer's reading
          sim unplug CAM | sim plug CAM   ... a camera's plug state
          sim busy CAM on|off             ... whether another program holds a camera
          sim sweep on|off                ... the demo fold cycle

        looking at rigs (no daemon needed):
          rig render RIG [--hinge ID=DEG ...] -o FILE.svg|-
                                          draw RIG (a preset id or a rig .json file) as SVG
          rig show PRESET                 print a preset's JSON
          rig list                        print the preset ids

        options:
          --socket PATH   the daemon's socket (default: $FOLDCAM_SOCKET, /run/foldcam/foldcam.sock
                          when it exists, else $XDG_RUNTIME_DIR/foldcam.sock)
          --json          print the daemon's JSON (one line) instead of tables; watch prints
                          the raw event lines
          --version       print foldcamctl's version and git revision
        presets: \(RigPresets.ids.joined(separator: ", "))
        exit codes: 0 success; 1 daemon not running or unreachable (or output not writable);
                    2 bad usage or bad input; 3 the daemon refused or failed the call
        """

    static func run(_ argv: [String]) async -> Int32 {
        var arguments = CommandLineArguments(argv)
        do {
            if arguments.isEmpty {
                throw CommandLineArguments.UsageError(description: "no command given\n\(usage)")
            }
            if arguments.takeFlag("--help") || arguments.takeFlag("-h") {
                print(usage)
                return 0
            }
            if arguments.takeSubcommand("rig") {
                try RigCommand.run(&arguments)
                return 0
            }
            let socketPath = arguments.takeValue("--socket")
            if socketPath == nil, argv.contains("--socket") {
                throw CommandLineArguments.UsageError(description: "--socket needs a value")
            }
            let daemon = DaemonContext(socketPath: socketPath, json: arguments.takeFlag("--json"))
            if arguments.takeSubcommand("status") {
                try await StatusCommand.run(&arguments, daemon)
            } else if arguments.takeSubcommand("devices") {
                try await DevicesCommand.run(&arguments, daemon)
            } else if arguments.takeSubcommand("directions") {
                try await DirectionsCommand.run(&arguments, daemon)
            } else if arguments.takeSubcommand("watch") {
                return try await WatchCommand.run(&arguments, daemon)
            } else if arguments.takeSubcommand("pin") {
                return try await PinCommand.pin(&arguments, daemon)
            } else if arguments.takeSubcommand("unpin") {
                try await PinCommand.unpin(&arguments, daemon)
            } else if arguments.takeSubcommand("rotation") {
                try await RotationCommand.run(&arguments, daemon)
            } else if arguments.takeSubcommand("snapshot") {
                try await SnapshotCommand.run(&arguments, daemon)
            } else if arguments.takeSubcommand("metrics") {
                try await MetricsCommand.run(&arguments, daemon)
            } else if arguments.takeSubcommand("sim") {
                try await SimCommand.run(&arguments, daemon)
            } else {
                let name = arguments.takePositional().map { "unknown command \"\($0)\"" } ?? "no command given"
                throw CommandLineArguments.UsageError(description: "\(name) (see --help)")
            }
            return 0
        } catch let error as FoldcamClientError {
            switch error {
            case .daemon:
                report(error.isForbidden ? "the daemon refused the call: \(error)" : "the daemon returned an error: \(error)")
                return 3
            default:
                report("\(error)")
                return 1
            }
        } catch let error as RigCommand.OutputError {
            report("\(error)")
            return 1
        } catch {
            report("\(error)")
            return 2
        }
    }

    static func report(_ message: String) {
        FileHandle.standardError.write(Data("foldcamctl: \(message)\n".utf8))
    }
}
