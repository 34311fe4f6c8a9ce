import FoldcamClient
import FoldcamCore
import FoldcamIO

/// Parses the command line against `ControlCommandLine.spec`, runs one command, and turns its
/// outcome into an exit code (the table in the spec).
enum ControlTool {
    static func run(_ argv: [String]) async -> Int32 {
        // `foldcamctl help` is `--help`, as users of git and systemctl expect.
        let argv = argv.first == "help" ? ["--help"] + argv.dropFirst() : argv
        // Looked for before parsing, so that a usage error comes as JSON too.
        let json = argv.prefix { $0 != "--" }.contains("--json")
        do {
            return try await dispatch(try CommandLineParser.parse(argv, ControlCommandLine.spec))
        } catch {
            let failure = Failure(error)
            report(failure.message)
            if json {
                let object = JSONValue.object([("error", .object([
                    ("code", .string(failure.code)), ("message", .string(failure.message)), ("exitCode", .int(Int(failure.exitCode))),
                ]))])
                StandardOutput.write(object.compactText + "\n")
            }
            return failure.exitCode
        }
    }

    private static func dispatch(_ parsed: ParsedArguments) async throws -> Int32 {
        var arguments = parsed
        let daemon = DaemonContext(socketPath: arguments.value("--socket"), json: arguments.flag("--json"))
        switch arguments.command {
        case "--help": print(UsageText.render(ControlCommandLine.spec))
        case "--version": print("foldcamctl \(BuildInfo.version) (revision \(BuildInfo.revision))")
        case "rig render": try RigCommand.render(&arguments)
        case "rig show": try RigCommand.show(&arguments)
        case "rig list": try RigCommand.list(&arguments)
        case "report": try ReportCommand.run(&arguments)
        case "calibrate": try await CalibrateCommand.run(&arguments)
        case "status": try await StatusCommand.run(&arguments, daemon)
        case "devices": try await DevicesCommand.run(&arguments, daemon)
        case "directions": try await DirectionsCommand.run(&arguments, daemon)
        case "watch": try await WatchCommand.run(&arguments, daemon)
        case "follow": try await FollowCommand.run(&arguments, daemon)
        case "pin": return try await PinCommand.pin(&arguments, daemon)
        case "unpin": try await PinCommand.unpin(&arguments, daemon)
        case "rotation": try await RotationCommand.run(&arguments, daemon)
        case "snapshot": try await SnapshotCommand.run(&arguments, daemon)
        case "metrics": try await MetricsCommand.run(&arguments, daemon)
        case let command where command.hasPrefix("sim "): try await SimCommand.run(&arguments, daemon)
        case let command: preconditionFailure("\(command) is declared but not dispatched")
        }
        return ControlCommandLine.Exit.ok
    }

    /// An error as the user sees it: a code (the daemon's, or one of foldcamctl's own), a
    /// message and the exit code.
    struct Failure {
        var code: String
        var message: String
        var exitCode: Int32

        /// Daemon error codes that mean the request itself was wrong (exit 2, like a usage
        /// error); every other code is the daemon refusing or failing the call (exit 1).
        static let badInputCodes: Set<WireProtocol.ErrorCode> = [.parseError, .invalidRequest, .unknownMethod, .invalidParams, .tooLarge]

        init(_ error: any Error) {
            typealias Exit = ControlCommandLine.Exit
            switch error {
            case let error as UsageError:
                self.init(code: "usage", message: error.description, exitCode: Exit.badInput)
            case let error as FoldcamClientError:
                switch error {
                case .daemonNotRunning: self.init(code: "daemonNotRunning", message: error.description, exitCode: Exit.unreachable)
                case .connectFailed: self.init(code: "connectFailed", message: error.description, exitCode: Exit.unreachable)
                case .disconnected: self.init(code: "disconnected", message: error.description, exitCode: Exit.unreachable)
                case .untrustedServer: self.init(code: "untrustedServer", message: error.description, exitCode: Exit.failure)
                case .invalidReply: self.init(code: "invalidReply", message: error.description, exitCode: Exit.failure)
                case .cancelled: self.init(code: "cancelled", message: error.description, exitCode: Exit.failure)
                case let .daemon(code, message):
                    let badInput = error.errorCode.map { Self.badInputCodes.contains($0) } ?? false
                    let prefix = error.isForbidden ? "the daemon refused the call" : badInput ? "the daemon rejected the request" : "the daemon failed the call"
                    self.init(code: code, message: "\(prefix): \(code): \(message)", exitCode: badInput ? Exit.badInput : Exit.failure)
                }
            case let error as CalibrationError:
                self.init(code: "calibrationFailed", message: error.description, exitCode: Exit.failure)
            case let error as OutputError:
                self.init(code: "outputNotWritable", message: error.description, exitCode: Exit.failure)
            default:
                // Bad input read locally: a rig file, hinge settings.
                self.init(code: "badInput", message: "\(error)", exitCode: Exit.badInput)
            }
        }

        init(code: String, message: String, exitCode: Int32) {
            self.code = code
            self.message = message
            self.exitCode = exitCode
        }
    }

    static func report(_ message: String) {
        StandardError.write("foldcamctl: \(message)\n")
    }
}

/// An output file could not be written (exit code 1: the input was fine).
struct OutputError: Error, CustomStringConvertible {
    var description: String
}
