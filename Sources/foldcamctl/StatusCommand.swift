import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl status`: everything at a glance.
enum StatusCommand {
    static func run(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        try arguments.finish()
        let connection = try daemon.connect()
        defer { connection.close() }
        let hello = try await connection.hello()
        let state = try await connection.state()
        if daemon.json {
            daemon.printJSON(.object([("daemon", hello), ("state", state)]))
            return
        }
        var lines = [
            "daemon          foldcamd \(hello["daemon"]?.stringValue ?? "?") (protocol \(Describe.number(hello["protocol"]))), \(hello["mode"]?.stringValue ?? "?") mode, socket \(connection.path)",
            "rig             \(state["rig"]?.stringValue ?? "?")",
            "posture         \(state["posture"]?.stringValue ?? "?")",
            "hinges          \(Describe.hinges(state["hinges"]))",
            "viewed display  \(Describe.viewed(state["viewedDisplay"], pinned: state["pinnedDisplay"]))",
        ] + Describe.virtualCameras(state["virtualCamera"], readiness: state["readiness"]) + sinks(state["sinks"]) + camerasInPipeWire(state["camerasInPipeWire"]) + [
            "",
            Describe.displaysTable(.object([("viewedDisplay", state["viewedDisplay"] ?? .null), ("displays", state["displays"] ?? .null)])),
        ]
        if case let .object(cameras)? = state["cameras"] {
            var table = TextTable(header: ["CAMERA", "AVAILABLE", "CAPTURE ROTATION"])
            for (id, camera) in cameras {
                let available = camera["available"] == .bool(true) ? "yes" : "no" + (camera["reason"]?.stringValue.map { " (\($0))" } ?? "")
                table.add([id, available, "\(Describe.number(camera["captureRotation"]))°"])
            }
            lines += ["", table.render()]
        }
        daemon.emit(lines.joined(separator: "\n"))
    }

    /// "in PipeWire     camera front as libcamera_input.front", one line per rig camera a
    /// companion sees as a PipeWire node (and so counts as present, docs/pipewire.md).
    static func camerasInPipeWire(_ value: JSONValue?) -> [String] {
        guard case let .array(cameras)? = value else { return [] }
        return cameras.map { camera in
            "in PipeWire     camera \(camera["camera"]?.stringValue ?? "?") as \(ClientText.quoted(camera["node"]?.stringValue ?? "?"))"
        }
    }

    /// "sink            foldcam.viewed (pipewire, for viewed): streaming", one line per sink a
    /// companion reports; the daemon sees no PipeWire itself, so nothing reported is nothing shown.
    static func sinks(_ value: JSONValue?) -> [String] {
        guard case let .array(sinks)? = value else { return [] }
        guard !sinks.isEmpty else { return ["sinks           none reported (a PipeWire node is shown once its foldcam-pipewire reports it)"] }
        return sinks.map { sink in
            let state = sink["state"]?.stringValue ?? "?"
            let reason = sink["reason"]?.stringValue.map { " (\($0))" } ?? ""
            return "sink            \(sink["node"]?.stringValue ?? "?") (\(sink["kind"]?.stringValue ?? "?"), for \(sink["virtualCamera"]?.stringValue ?? "?")): \(state)\(reason)"
        }
    }
}
