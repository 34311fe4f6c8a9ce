import FoldcamCore
import Glibc

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
        let bytes = try readBytes(path, what: what)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw LoadError(description: "\(what) \(path) is not UTF-8 text")
        }
        return text
    }

    /// Reads a file (or standard input for "-") whole, up to `RigLimits.fileBytes`.
    public static func readBytes(_ path: String, what: String) throws -> [UInt8] {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason: String
            switch errno {
            case ENOENT: reason = "does not exist"
            case EACCES: reason = "cannot be read (check permissions)"
            default: reason = "cannot be opened: \(String(cString: strerror(errno)))"
            }
            throw LoadError(description: "\(what) \(path) \(reason)")
        }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw LoadError(description: "\(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            // Rigs, configs and scripts are small: refuse anything absurd instead of filling memory.
            guard bytes.count <= RigLimits.fileBytes else {
                throw LoadError(description: "\(what) \(path) is larger than \(RigLimits.fileBytes / (1024 * 1024)) MiB, the limit for rigs, configurations and scenario scripts (see Limits in docs/rig-format.md)")
            }
        }
        return bytes
    }
}
