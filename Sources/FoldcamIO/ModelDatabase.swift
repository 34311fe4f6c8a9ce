import FoldcamCore
import FoldcamPlatform

/// Reads the device model database (docs/devices.md) and this machine's DMI values: the file
/// side of `ModelMatcher`, which decides.
public enum ModelDatabase {
    /// Shipped models: the package installs them here.
    public static let shippedDirectory = "/usr/share/foldcam/models.d"
    /// Local models and overrides: a file here replaces a shipped one of the same name.
    public static let localDirectory = "/etc/foldcam/models.d"
    /// `LOCAL[:SHIPPED]`: other directories in place of the two above (tests, trying a new model).
    public static let pathVariable = "FOLDCAM_MODELS_PATH"
    /// Where the kernel publishes DMI (umockdev tests give their own).
    public static let dmiDirectory = "/sys/class/dmi/id"

    public struct Loaded: Sendable {
        public var candidates: [ModelMatcher.Candidate] = []
        /// One message per file that could not be read or decoded; that file is left out.
        public var problems: [String] = []
        public var directories: [(path: String, origin: ModelMatcher.Origin)] = []
    }

    /// The directories searched, local first.
    public static func directories(environment: [String: String] = ProcessEnvironment.current) -> [(path: String, origin: ModelMatcher.Origin)] {
        if let value = environment[pathVariable], !value.isEmpty {
            let parts = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            return [(parts[0], .local)] + parts.dropFirst().prefix(1).map { ($0, .shipped) }
        }
        return [(localDirectory, .local), (shippedDirectory, .shipped)]
    }

    /// Every `*.json` in the directories, in name order per directory; a directory that does
    /// not exist is not a problem (no local models is the usual case).
    public static func load(directories: [(path: String, origin: ModelMatcher.Origin)] = directories()) -> Loaded {
        var loaded = Loaded()
        loaded.directories = directories
        for (directory, origin) in directories {
            for name in Directory.names(in: directory).filter({ $0.hasSuffix(".json") && !$0.hasPrefix(".") }).sorted() {
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                let id = String(name.dropLast(".json".count))
                do {
                    let text = try RigLoader.readText(path, what: "model file")
                    let model = try DeviceModelDecoder.decode(json: text, id: id)
                    loaded.candidates.append(.init(model: model, origin: origin, fileName: name, path: path))
                } catch let error as DocumentErrors {
                    loaded.problems.append("model file \(path) is invalid and was left out:\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
                } catch {
                    loaded.problems.append("\(error); left out")
                }
            }
        }
        return loaded
    }

    /// The DMI fields this machine reports (fields it lacks or that cannot be read are absent;
    /// firmware placeholders such as "To be filled by O.E.M." are kept: a model may match them).
    public static func readDMI(directory: String = dmiDirectory) -> [DMIField: String] {
        var values: [DMIField: String] = [:]
        for field in DMIField.allCases {
            guard let bytes = try? FileContents.read(directory + "/" + field.rawValue, limit: 4096),
                  let text = String(validating: bytes, as: UTF8.self) else { continue }
            let value = String(String(text.drop { $0.isWhitespace }.reversed()).drop { $0.isWhitespace }.reversed())
            if !value.isEmpty { values[field] = value }
        }
        return values
    }
}

/// The model chosen for this machine, its rig, and how it was chosen: what the daemon, a
/// reload, `--probe` and `--check-config` use when no rig is configured.
public struct ModelSelection: Sendable {
    public var dmi: [DMIField: String]
    public var choice: ModelMatcher.Choice
    public var rig: Rig?
    public var problems: [String]

    public var model: DeviceModel? { choice.chosen?.model }

    /// Reads DMI and the database and chooses. A chosen model whose rig does not resolve is an
    /// error naming the file (the model is broken, not absent).
    public static func select(directories: [(path: String, origin: ModelMatcher.Origin)] = ModelDatabase.directories(), dmiDirectory: String = ModelDatabase.dmiDirectory) throws -> ModelSelection {
        let dmi = ModelDatabase.readDMI(directory: dmiDirectory)
        let loaded = ModelDatabase.load(directories: directories)
        let choice = ModelMatcher.choose(dmi: dmi, among: loaded.candidates)
        var rig: Rig?
        if let chosen = choice.chosen {
            do {
                rig = try chosen.model.resolvedRig()
            } catch {
                throw RigLoader.LoadError(description: "model file \(chosen.path) matches this machine but its rig is invalid:\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
            }
        }
        return ModelSelection(dmi: dmi, choice: choice, rig: rig, problems: loaded.problems)
    }

    /// "model lenovo-thinkpad-yoga-260 (/usr/share/...json), matched on sys_vendor "LENOVO", ..."
    public var summary: String {
        guard let chosen = choice.chosen else {
            let known = dmi.keys.sorted().map { "\($0.rawValue) \(ClientText.quoted(dmi[$0]!))" }.joined(separator: ", ")
            return "no device model matches this machine (\(known.isEmpty ? "it reports no DMI fields" : known))"
        }
        let fields = choice.matched.map { "\($0.field.rawValue) \(ClientText.quoted($0.value))" }.joined(separator: ", ")
        // A model file's text reaches the journal: its name and path are escaped like any text.
        return "model \(ClientText.escaped(chosen.model.id, limit: 128)) (\(ClientText.quoted(chosen.model.name)); \(ClientText.escaped(chosen.path, limit: 512))) matched on \(fields)"
    }
}
