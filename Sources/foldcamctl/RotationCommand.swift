import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl rotation D DEG`: the UI on display D is rotated DEG degrees.
enum RotationCommand {
    static func run(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        let display = try arguments.requirePositional("display")
        let text = try arguments.requirePositional("rotation in degrees (0, 90, 180, 270)")
        try arguments.finish()
        // Checked here as well as by the daemon, so "45" and "abc" fail alike, without a daemon.
        guard let degrees = Int(text), [0, 90, 180, 270].contains(degrees) else {
            throw UsageError("rotation: expected 0, 90, 180 or 270, got \"\(text)\"")
        }
        let result = try await daemon.call("setScreenRotation", .object([("display", .string(display)), ("rotation", .int(degrees))]))
        if daemon.json { return daemon.printJSON(result) }
        daemon.emit("screen rotation of \(display) set to \(degrees)°; forward \(Describe.list(result["forward"])), backward \(Describe.list(result["backward"]))\n"
            + DirectionsCommand.cameraTable(result))
    }
}
