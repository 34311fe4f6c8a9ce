import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl devices`: the camera descriptors.
enum DevicesCommand {
    static func run(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        try arguments.finish()
        let devices = try await daemon.call("devices")
        if daemon.json { return daemon.printJSON(devices) }
        var table = TextTable(header: ["CAMERA", "POSITION", "TYPE", "AVAILABLE", "NODE", "BEST FORMAT", "UNIQUE ID", "NAME"])
        if case let .array(cameras)? = devices["cameras"] {
            for camera in cameras {
                let available = camera["available"].map { $0 == .bool(true) ? "yes" : "no" + (camera["reason"]?.stringValue.map { " (\($0))" } ?? "") } ?? "-"
                var best: JSONValue?
                if case let .array(formats)? = camera["formats"] { best = formats.first }
                table.add([
                    camera["rigCamera"]?.stringValue ?? "-", camera["position"]?.stringValue ?? "?", camera["deviceType"]?.stringValue ?? "?",
                    available, camera["node"]?.stringValue ?? "-", Describe.format(best), camera["uniqueID"]?.stringValue ?? "?",
                    camera["localizedName"]?.stringValue ?? "",
                ])
            }
        }
        daemon.emit(table.render())
    }
}
