import Foundation
import PackagePlugin

/// Embeds every `Presets/*.json` file of the target as a Swift string literal
/// (`RigPresets.generated.swift`), so the built-in rigs are exactly the files users can copy.
/// Also embeds the package's `VERSION` file and the git revision (`BuildInfo.generated.swift`):
/// VERSION is the one place the version is written (scripts/package reads it too). The revision
/// is the `REVISION` file when present (scripts/package writes it for the build it packages, with
/// `-dirty` for uncommitted changes, and removes it afterwards), else the commit `.git` names
/// (read from its files, no git needed: a clone or a worktree), else "unknown" (a tarball).
/// The git files HEAD points through are inputs, so a commit or checkout re-runs the command.
/// SwiftPM does not run this plugin again when REVISION appears, so REVISION is not an input:
/// scripts/package deletes BuildInfo.generated.swift from its build directory, and the missing
/// output makes the build run the command again, which reads REVISION if it exists.
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
        let git = GitFiles(package: context.package.directoryURL)
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
                arguments: ["--build-info", buildInfoOutput.path, versionFile.path, revisionFile.path] + (git.directory.map { [$0.path] } ?? []),
                inputFiles: [versionFile] + git.inputs,
                outputFiles: [buildInfoOutput]
            ),
        ]
    }
}

/// Where the package's git metadata is (`.git` is a directory in a clone, a `gitdir:` file in a
/// worktree) and which of its files name the current commit. Mirrors what EmbedRigPresetsTool
/// reads, so that exactly those files are inputs.
struct GitFiles {
    var directory: URL?
    var inputs: [URL] = []

    init(package: URL) {
        let dotGit = package.appendingPathComponent(".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue {
            directory = dotGit
        } else if let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir:") {
            let path = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            directory = path.hasPrefix("/") ? URL(fileURLWithPath: path) : package.appendingPathComponent(path)
        }
        guard let directory else { return }
        var common = directory
        if let text = try? String(contentsOf: directory.appendingPathComponent("commondir"), encoding: .utf8) {
            let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
            common = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
        }
        let head = directory.appendingPathComponent("HEAD")
        var candidates = [head, common.appendingPathComponent("packed-refs")]
        if let text = try? String(contentsOf: head, encoding: .utf8), text.hasPrefix("ref:") {
            let ref = text.dropFirst("ref:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            candidates += [directory.appendingPathComponent(ref), common.appendingPathComponent(ref)]
        }
        inputs = candidates.filter { FileManager.default.fileExists(atPath: $0.path) }
    }
}
