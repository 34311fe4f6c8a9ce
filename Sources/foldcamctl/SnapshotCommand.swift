import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl snapshot [--at TIMESTAMP] [--camera ID] OUT.png`: the virtual camera's frame nearest a moment
/// (default: now), upright and unmirrored. TIMESTAMP is CLOCK_MONOTONIC nanoseconds, as a
/// kiosk would record when its shutter button was pressed.
enum SnapshotCommand {
    static func run(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        var params: [(String, JSONValue)] = []
        if let at = arguments.value("--at") {
            guard let nanoseconds = Int(at), nanoseconds >= 0 else {
                throw UsageError("--at: expected CLOCK_MONOTONIC nanoseconds, got \"\(at)\"")
            }
            params.append(("at", .int(nanoseconds)))
        }
        if let camera = arguments.value("--camera") { params.append(("camera", .string(camera))) }
        let output = try arguments.requirePositional("output file (.png)")
        try arguments.finish()
        try OutputName.check(output, option: "", writes: "PNG", extensions: [".png"], allowStandardOutput: false)
        let result = try await daemon.call("snapshot", .object(params))
        guard let encoded = result["png"]?.stringValue, let png = Base64.decode(encoded) else {
            throw FoldcamClientError.invalidReply("snapshot reply carries no PNG")
        }
        try write(png, to: output)
        if daemon.json {
            guard case let .object(members) = result else { return daemon.printJSON(result) }
            return daemon.printJSON(.object(members.filter { $0.0 != "png" } + [("path", .string(output))]))
        }
        let source = result["source"]?.stringValue ?? "none"
        let width = result["width"].map { $0.compactText } ?? "?"
        let height = result["height"].map { $0.compactText } ?? "?"
        let timestamp = result["timestamp"].map { $0.compactText } ?? "?"
        daemon.emit("wrote \(output): \(width)x\(height) from \(source), captured at \(timestamp) (CLOCK_MONOTONIC ns)")
    }

    /// Writes the file, saying why it could not (the errno's text: no such directory, permission
    /// denied, no space left).
    static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try OutputFile.write(bytes, to: path)
        } catch {
            throw OutputError(description: "cannot write \(path): \(error.step): \(error.errno)")
        }
    }
}
