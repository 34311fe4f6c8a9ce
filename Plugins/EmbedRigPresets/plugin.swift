import Foundation
import PackagePlugin

/// Embeds every `Presets/*.json` file of the target as a Swift string literal
/// (`RigPresets.generated.swift`), so the built-in rigs are exactly the files users can copy.
@main
struct EmbedRigPresets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let sourceTarget = target as? SourceModuleTarget else { return [] }
        let presetsDirectory = sourceTarget.directoryURL.appendingPathComponent("Presets")
        let names = try FileManager.default.contentsOfDirectory(atPath: presetsDirectory.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
        let inputs = names.map { presetsDirectory.appendingPathComponent($0) }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("RigPresets.generated.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) rig presets",
                executable: try context.tool(named: "EmbedRigPresetsTool").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
