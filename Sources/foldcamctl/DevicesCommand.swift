import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl devices`: the camera descriptors, and the displays' outputs where the rig names them.
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
        var text = table.render()
        // Displays on a named output (docs/model.md, "Outputs"); none for rigs that name none.
        if case let .array(displays)? = devices["displays"], displays.contains(where: { $0["output"]?.stringValue != nil }) {
            var outputs = TextTable(header: ["DISPLAY", "OUTPUT", "STATE", "VIEWABLE", "MOUNT ROTATION"])
            for display in displays {
                var viewable = display["viewable"] == .bool(true) ? "yes" : "no" + (display["reason"]?.stringValue.map { " (\($0))" } ?? "")
                if case let .array(parts)? = display["covered"], !parts.isEmpty {
                    viewable += ", \(parts.compactMap { $0["face"]?.stringValue }.joined(separator: ", ")) covered"
                }
                outputs.add([
                    display["id"]?.stringValue ?? "?", display["output"]?.stringValue ?? "-", display["state"]?.stringValue ?? "?", viewable,
                    "\(Describe.number(display["mountRotation"]))° (\(display["mountRotationSource"]?.stringValue ?? "?"))",
                ])
            }
            text += "\n" + outputs.render()
        }
        daemon.emit(text)
    }
}
