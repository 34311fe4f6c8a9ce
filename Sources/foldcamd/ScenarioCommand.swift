import FoldcamCore
import FoldcamIO

/// `foldcamd scenario`: validates the rig and the whole script first (so a bad input prints
/// nothing on stdout), then prints one compact JSON state per step as it is computed. Memory
/// stays flat however long the script: no step's output is kept once written.
enum ScenarioCommand {
    /// Output is written in chunks of about this size (one write per line would be a system
    /// call per step).
    static let chunkBytes = 64 * 1024

    static func run(rigSpec: String, scriptPath: String) throws {
        let rig = try RigLoader.load(rigSpec)
        let bytes = try RigLoader.readBytes(scriptPath, what: "scenario")
        let script: ScenarioScript
        do {
            script = try ScenarioScript(bytes: bytes, rig: rig)
        } catch {
            throw RigLoader.LoadError(description: "scenario \(scriptPath == "-" ? "(stdin)" : scriptPath) is invalid:\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
        }
        var pending: [UInt8] = []
        pending.reserveCapacity(chunkBytes + 16 * 1024)
        var open = true
        ScenarioRunner.run(script) { line in
            pending += line.compactUTF8
            pending.append(UInt8(ascii: "\n"))
            if pending.count >= chunkBytes {
                open = StandardOutput.write(String(decoding: pending, as: UTF8.self))
                pending.removeAll(keepingCapacity: true)
            }
            return open
        }
        if open && !pending.isEmpty { StandardOutput.write(String(decoding: pending, as: UTF8.self)) }
    }
}
