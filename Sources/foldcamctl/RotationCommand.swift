import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl rotation D DEG`: the UI on display D is rotated DEG degrees.
enum RotationCommand {
    static func run(_ arguments: inout CommandLineArguments, _ daemon: DaemonContext) async throws {
        let display = try arguments.requirePositional("display")
        let text = try arguments.requirePositional("rotation in degrees (0, 90, 180, 270)")
        try arguments.finish()
        guard let degrees = Int(text) else {
            throw CommandLineArguments.UsageError(description: "rotation: expected 0, 90, 180 or 270, got \"\(text)\"")
        }
        let result = try await daemon.call("setScreenRotation", .object([("display", .string(display)), ("rotation", .int(degrees))]))
        if daemon.json { return daemon.printJSON(result) }
        daemon.emit("screen rotation of \(display) set to \(degrees)°; forward \(Describe.list(result["forward"])), backward \(Describe.list(result["backward"]))\n"
            + DirectionsCommand.cameraTable(result))
    }
}
