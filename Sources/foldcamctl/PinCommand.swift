import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl pin [--persist] D` / `unpin`: choose the viewed display (the one the kiosk's
/// window is on). A pin belongs to its connection (docs/protocol.md, "Pins"): plain `pin` holds
/// it while foldcamctl runs, like `systemd-inhibit` (Ctrl-C or SIGTERM ends it), and when the
/// daemon goes away says so once and pins again as soon as it is back; `--persist` leaves a pin
/// that outlives foldcamctl and daemon restarts, which `unpin` ends.
enum PinCommand {
    static func pin(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws -> Int32 {
        let persist = arguments.flag("--persist")
        let display = try arguments.requirePositional("display")
        try arguments.finish()
        guard !persist else {
            let connection = try daemon.connect()
            defer { connection.close() }
            let posture = try await connection.pinView(display: display, persist: true)
            try await announce(display, posture, lasts: "persisted: it stays after foldcamctl exits and across daemon restarts (foldcamctl unpin ends it)", daemon)
            return ControlCommandLine.Exit.ok
        }
        // Held while foldcamctl runs, and made again whenever the daemon comes back.
        var pinnedOnce = false
        var lossReported = false
        for await update in FoldcamPin(display: display, socketPath: daemon.socketPath).updates {
            switch update {
            case let .pinned(gap, posture):
                if let gap {
                    ControlTool.report("the daemon is back: pinned \(display) again (it was not in force for \(seconds(gap)))")
                    if daemon.json { daemon.printJSON(posture) }
                } else {
                    try await announce(display, posture, lasts: "held while foldcamctl runs, and made again after a daemon restart (Ctrl-C ends it; --persist keeps it)", daemon)
                }
                pinnedOnce = true
                lossReported = false
            case let .lost(error, _):
                // Before the first pin: no daemon to pin on, exit 3 at once (as every command).
                guard pinnedOnce else { throw error }
                if !lossReported {
                    ControlTool.report("\(error); the pin on \(display) is not in force until the daemon is back: retrying (Ctrl-C to stop)")
                    lossReported = true
                }
            case let .refused(error):
                throw error
            }
        }
        return ControlCommandLine.Exit.ok
    }

    /// `2.3 s`
    static func seconds(_ duration: Duration) -> String {
        let tenths = Int(duration / .milliseconds(100))
        return "\(tenths / 10).\(tenths % 10) s"
    }

    private static func announce(_ display: String, _ posture: JSONValue, lasts: String, _ daemon: DaemonContext) async throws {
        if daemon.json { return daemon.printJSON(posture) }
        let virtualCamera = try await daemon.call("state")["virtualCamera"]
        daemon.emit("pinned the view to \(display), \(lasts); viewed display \(Describe.viewed(posture["viewedDisplay"], pinned: posture["pinnedDisplay"])), virtual camera \(Describe.virtualCamera(virtualCamera))")
    }

    static func unpin(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        try arguments.finish()
        let connection = try daemon.connect()
        defer { connection.close() }
        let posture = try await connection.unpinView(persisted: true)
        if daemon.json { return daemon.printJSON(posture) }
        let virtualCamera = try await connection.request(method: "state")["virtualCamera"]
        daemon.emit("ended the persisted pin; viewed display \(Describe.viewed(posture["viewedDisplay"], pinned: posture["pinnedDisplay"])), virtual camera \(Describe.virtualCamera(virtualCamera))")
    }
}
