import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl pin [--persist] D` / `unpin`: choose the viewed display (the one the kiosk's
/// window is on). A pin belongs to its connection (docs/protocol.md, "Pins"): plain `pin` holds
/// it while foldcamctl runs, like `systemd-inhibit` (Ctrl-C, SIGTERM or the daemon going away
/// ends it); `--persist` leaves a pin that outlives foldcamctl and daemon restarts, which
/// `unpin` ends.
enum PinCommand {
    static func pin(_ arguments: inout CommandLineArguments, _ daemon: DaemonContext) async throws -> Int32 {
        let persist = arguments.takeFlag("--persist")
        let display = try arguments.requirePositional("display")
        try arguments.finish()
        let connection = try daemon.connect()
        defer { connection.close() }
        let posture = try await connection.pinView(display: display, persist: persist)
        if daemon.json {
            daemon.printJSON(posture)
        } else {
            let virtualCamera = try await connection.request(method: "state")["virtualCamera"]
            let lasts = persist ? "persisted: it stays after foldcamctl exits and across daemon restarts (foldcamctl unpin ends it)" : "held while foldcamctl runs (Ctrl-C ends it; --persist keeps it)"
            daemon.emit("pinned the view to \(display), \(lasts); viewed display \(Describe.viewed(posture["viewedDisplay"], pinned: posture["pinnedDisplay"])), virtual camera \(Describe.virtualCamera(virtualCamera))")
        }
        guard !persist else { return 0 }
        // Hold the connection: the events end when the daemon closes it (stopped, restarted).
        _ = try await connection.subscribe([.posture])
        for await _ in connection.events {}
        ControlTool.report("the daemon closed the connection; the pin on \(display) ended with it")
        return 1
    }

    static func unpin(_ arguments: inout CommandLineArguments, _ daemon: DaemonContext) async throws {
        try arguments.finish()
        let connection = try daemon.connect()
        defer { connection.close() }
        let posture = try await connection.unpinView(persisted: true)
        if daemon.json { return daemon.printJSON(posture) }
        let virtualCamera = try await connection.request(method: "state")["virtualCamera"]
        daemon.emit("ended the persisted pin; viewed display \(Describe.viewed(posture["viewedDisplay"], pinned: posture["pinnedDisplay"])), virtual camera \(Describe.virtualCamera(virtualCamera))")
    }
}
