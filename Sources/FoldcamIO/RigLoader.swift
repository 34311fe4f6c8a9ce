import FoldcamCore
import Foundation

/// Finds a rig by preset id or file path and decodes it.
public enum RigLoader {
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// `spec` is a built-in preset id (`duo`) or a path to a rig JSON file.
    public static func load(_ spec: String) throws -> Rig {
        if let text = RigPresets.json(spec) {
            return try decode(text, origin: "preset \(spec)")
        }
        guard spec.contains("/") || spec.hasSuffix(".json") else {
            throw LoadError(description: "unknown rig \"\(spec)\": not a preset (presets: \(RigPresets.ids.joined(separator: ", "))) and not a .json path")
        }
        let text = try readText(spec, what: "rig file")
        return try decode(text, origin: spec)
    }

    private static func decode(_ text: String, origin: String) throws -> Rig {
        do {
            return try RigDecoder.decode(json: text)
        } catch {
            throw LoadError(description: "\(origin) is not a valid rig:\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
        }
    }

    /// Reads a UTF-8 text file (or standard input for "-"), naming the file in any error.
    public static func readText(_ path: String, what: String) throws -> String {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read (check permissions)" : "does not exist"
                throw LoadError(description: "\(what) \(path) \(reason)")
            }
            data = contents
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LoadError(description: "\(what) \(path) is not UTF-8 text")
        }
        return text
    }
}
