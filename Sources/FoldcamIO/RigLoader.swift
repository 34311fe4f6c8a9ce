import FoldcamCore
import FoldcamPlatform

/// Finds a rig by preset id or file path and decodes it.
public enum RigLoader {
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// `spec` is a built-in preset id (`duo`), `model:ID` (the rig of a device model in the
    /// model database, docs/devices.md) or a path to a rig JSON file.
    public static func load(_ spec: String) throws -> Rig {
        if let text = RigPresets.json(spec) {
            return try decode(text, origin: "preset \(spec)")
        }
        if spec.hasPrefix(modelPrefix) { return try modelRig(String(spec.dropFirst(modelPrefix.count))) }
        guard spec.contains("/") || spec.hasSuffix(".json") else {
            throw LoadError(description: "unknown rig \(ClientText.quoted(spec)): not a preset (presets: \(RigPresets.ids.joined(separator: ", "))) and not a .json path")
        }
        let text = try readText(spec, what: "rig file")
        return try decode(text, origin: spec)
    }

    public static let modelPrefix = "model:"

    /// The rig of the model `id`, as the database's precedence picks the file (/etc first).
    static func modelRig(_ id: String) throws -> Rig {
        let loaded = ModelDatabase.load()
        let named = loaded.candidates.filter { $0.model.id == id }.sorted { $0.origin > $1.origin }
        guard let candidate = named.first else {
            let ids = Array(Set(loaded.candidates.map(\.model.id))).sorted()
            let searched = loaded.directories.map(\.path).joined(separator: ", ")
            throw LoadError(description: "unknown model \(ClientText.quoted(id))\(NearestName.hint(for: id, among: ids)) (models in \(searched): \(ids.isEmpty ? "none" : ids.joined(separator: ", ")))")
        }
        do {
            return try candidate.model.resolvedRig()
        } catch {
            throw LoadError(description: "model file \(candidate.path) has an invalid rig:\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
        }
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
        do {
            // Rigs, configs and scripts are small: refuse anything absurd instead of filling memory.
            return try FileContents.read(path, limit: RigLimits.fileBytes)
        } catch {
            switch error {
            case let .failed(failure) where failure.call == "open":
                let reason: String
                switch failure.errno {
                case .noEntry: reason = "does not exist"
                case .permissionDenied: reason = "cannot be read (check permissions)"
                default: reason = "cannot be opened: \(failure.errno)"
                }
                throw LoadError(description: "\(what) \(path) \(reason)")
            case let .failed(failure):
                throw LoadError(description: "\(what) \(path) cannot be read: \(failure.errno)")
            case .tooLarge:
                throw LoadError(description: "\(what) \(path) is larger than \(RigLimits.fileBytes / (1024 * 1024)) MiB, the limit for rigs, configurations and scenario scripts (see Limits in docs/rig-format.md)")
            }
        }
    }
}
