import FoldcamCore
import FoldcamPlatform

/// `"rig": "auto"` in foldcamd's configuration: the rig file beside the configuration when the
/// administrator wrote one, else this machine's device model. foldcamd's configuration loader
/// and the PipeWire companion both resolve it here, so they load the same rig.
public enum AutomaticRig {
    /// The rig file looked for in the configuration's directory.
    public static let fileName = "rig.json"

    public enum Resolution: Sendable {
        /// The administrator's rig file, which wins over any model.
        case file(String)
        /// No rig file: the model search (its `rig` is nil when no model matches).
        case model(ModelSelection)
    }

    /// `searchModels` false (simulation): no model search; `.model` is then never returned.
    public static func resolve(configPath: String, searchModels: Bool = true) throws -> Resolution? {
        let local = localFile(besides: configPath)
        if PathKind.of(local) != .missing { return .file(local) }
        return searchModels ? .model(try ModelSelection.select()) : nil
    }

    /// "/etc/foldcam/foldcam.json" -> "/etc/foldcam/rig.json"; "foldcam.json" -> "./rig.json".
    public static func localFile(besides configPath: String) -> String {
        guard let slash = configPath.lastIndex(of: "/") else { return "./" + fileName }
        return String(configPath[..<slash]) + "/" + fileName
    }

    /// Why `auto` found nothing, and what to do.
    public static func nothingFound(configPath: String, _ selection: ModelSelection) -> String {
        let local = localFile(besides: configPath)
        return """
            config file \(configPath): rig "auto" found no rig: there is no \(local) and \(selection.summary)
              write \(local) (start from 'foldcamctl rig show ID'; docs/rig-format.md), or set "rig" to a preset id;
              to have this model known, send 'foldcamctl report' (docs/devices.md)
            """
    }
}
