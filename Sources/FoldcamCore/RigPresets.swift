/// The reference rigs built into foldcam (docs/rigs.md). Their JSON files live in
/// `Sources/FoldcamCore/Presets/` and are embedded at build time; users copy them as a start.
public enum RigPresets {
    /// Preset ids in a stable order.
    public static var ids: [String] { embeddedSources.map(\.name) }

    /// The JSON text of a preset, or nil for an unknown id.
    public static func json(_ id: String) -> String? {
        embeddedSources.first { $0.name == id }?.json
    }

    /// A decoded preset. The presets are validated by the test suite, so a failure here is a
    /// build defect, reported as an error rather than a crash.
    public static func rig(_ id: String) throws(DocumentErrors) -> Rig? {
        guard let text = json(id) else { return nil }
        return try RigDecoder.decode(json: text)
    }
}
