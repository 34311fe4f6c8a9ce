import Foundation
import PackagePlugin

/// Embeds every `Presets/*.json` file of the target as a Swift string literal
/// (`RigPresets.generated.swift`), so the built-in rigs are exactly the files users can copy.
/// Also embeds the package's `VERSION` file and, when present, its `REVISION` file
/// (`BuildInfo.generated.swift`): VERSION is the one place the version is written (scripts/package
/// reads it too); REVISION is written by scripts/package for the build it packages and removed
/// afterwards, so a plain `swift build` reports the revision as "unknown". SwiftPM does not run
/// this plugin again when REVISION appears, so REVISION is not an input: scripts/package deletes
/// BuildInfo.generated.swift from its build directory, and the missing output makes the build
/// run the command again, which reads REVISION if it exists.
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

        let versionFile = context.package.directoryURL.appendingPathComponent("VERSION")
        let revisionFile = context.package.directoryURL.appendingPathComponent("REVISION")
        let buildInfoOutput = context.pluginWorkDirectoryURL.appendingPathComponent("BuildInfo.generated.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) rig presets",
                executable: try context.tool(named: "EmbedRigPresetsTool").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            ),
            .buildCommand(
                displayName: "Embedding the version",
                executable: try context.tool(named: "EmbedRigPresetsTool").url,
                arguments: ["--build-info", buildInfoOutput.path, versionFile.path, revisionFile.path],
                inputFiles: [versionFile],
                outputFiles: [buildInfoOutput]
            ),
        ]
    }
}
