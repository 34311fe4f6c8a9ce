import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl directions [--display D | --output NAME]`: which cameras face each display's
/// viewer, and how.
enum DirectionsCommand {
    static func run(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        // `directions outer` as well as `directions --display outer` (like `pin outer`).
        var display = arguments.value("--display")
        if let positional = arguments.takePositional() {
            guard display == nil else { throw UsageError("directions: give the display once (D or --display D)") }
            display = positional
        }
        let outputs = arguments.values("--output")
        guard outputs.count <= 1 else { throw UsageError("--output given more than once") }
        let output = outputs.first
        try arguments.finish()
        if display != nil && output != nil { throw UsageError("directions: give --display or --output, not both") }
        var params: [(String, JSONValue)] = []
        if let display { params.append(("display", .string(display))) }
        if let output { params.append(("output", .string(output))) }
        let result = try await daemon.call("directions", .object(params))
        if daemon.json { return daemon.printJSON(result) }
        if let one = display ?? result["display"]?.stringValue, display != nil || output != nil {
            daemon.emit(section(one, result, viewed: result["viewed"] == .bool(true)))
        } else if case let .object(displays)? = result["displays"] {
            let viewed = result["viewedDisplay"]?.stringValue
            daemon.emit(displays.map { section($0.0, $0.1, viewed: $0.0 == viewed) }.joined(separator: "\n\n"))
        }
    }

    static func section(_ id: String, _ display: JSONValue, viewed: Bool) -> String {
        var notes = [viewed ? "viewed" : "not viewed", "rotation \(Describe.number(display["screenRotation"]))°"]
        if display["occluded"] == .bool(true) { notes.append("occluded") }
        if let output = display["output"]?.stringValue { notes.append("output \(output) \(display["outputState"]?.stringValue ?? "unknown")") }
        if display["viewable"] == .bool(false), let reason = display["reason"]?.stringValue, reason != "occluded" { notes.append("not viewable (\(reason))") }
        return "\(id): \(notes.joined(separator: ", ")); forward \(Describe.list(display["forward"])), backward \(Describe.list(display["backward"]))\n"
            + cameraTable(display)
    }

    /// One display's cameras: which way each faces, and how to show and record it.
    static func cameraTable(_ display: JSONValue) -> String {
        var table = TextTable(header: ["CAMERA", "FACES", "MIRROR", "PREVIEW", "CAPTURE"])
        if case let .object(cameras)? = display["cameras"] {
            for (camera, pair) in cameras {
                table.add([camera, pair["forward"] == .bool(true) ? "forward" : "backward",
                           Describe.yesNo(pair["mirror"]), "\(Describe.number(pair["previewRotation"]))°", "\(Describe.number(pair["captureRotation"]))°"])
            }
        }
        return table.render(indent: "  ")
    }
}
