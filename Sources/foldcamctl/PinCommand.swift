import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl pin D` / `unpin`: choose the viewed display (the one the kiosk's window is on).
enum PinCommand {
    static func pin(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        let display = try arguments.requirePositional("display")
        try arguments.finish()
        try await change(daemon, verb: "pinned the view to \(display)") { try await $0.pinView(display: display) }
    }

    static func unpin(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        try arguments.finish()
        try await change(daemon, verb: "unpinned the view") { try await $0.unpinView() }
    }

    private static func change(_ daemon: DaemonContext, verb: String, _ body: (FoldcamConnection) async throws -> JSONValue) async throws {
        let connection = try daemon.connect()
        defer { connection.close() }
        let posture = try await body(connection)
        if daemon.json { return daemon.printJSON(posture) }
        let virtualCamera = try await connection.request(method: "state")["virtualCamera"]
        daemon.emit("\(verb); viewed display \(Describe.viewed(posture["viewedDisplay"], pinned: posture["pinnedDisplay"])), virtual camera \(Describe.virtualCamera(virtualCamera))")
    }
}
