import FoldcamCore
import FoldcamIO
import FoldcamRender

/// `foldcamctl rig ...`: look at rig descriptions (presets or files) without running the daemon.
enum RigCommand {
    /// What `rig render -o` can write: SVG only, so a name promising another format is refused
    /// rather than filled with SVG.
    static let writableExtensions = [".svg"]

    static func render(_ arguments: inout ParsedArguments) throws {
        let settings = arguments.values("--hinge")
        let output = try arguments.requiredValue("-o")
        let spec = try arguments.requirePositional("rig (a preset id or a .json file)")
        try arguments.finish()
        try OutputName.check(output, option: "-o", writes: "SVG", extensions: writableExtensions)
        let rig = try RigLoader.load(spec)
        let angles = try HingeSettings.angles(for: rig, settings: settings)
        let svg = RigRenderer.svg(rig: rig, angles: angles)
        if output == "-" {
            StandardOutput.write(svg)
        } else {
            do {
                try OutputFile.write(Array(svg.utf8), to: output)
            } catch {
                throw OutputError(description: "cannot write \(output) (check that its directory exists and is writable)")
            }
        }
    }

    static func show(_ arguments: inout ParsedArguments) throws {
        let id = try arguments.requirePositional("preset id")
        try arguments.finish()
        guard let json = RigPresets.json(id) else {
            let hint = NearestName.suggestion(for: id, among: RigPresets.ids).map { "; did you mean \"\($0)\"?" } ?? ""
            throw UsageError("unknown preset \"\(id)\"\(hint) (presets: \(RigPresets.ids.joined(separator: ", ")))")
        }
        print(json, terminator: json.hasSuffix("\n") ? "" : "\n")
    }

    static func list(_ arguments: inout ParsedArguments) throws {
        try arguments.finish()
        for id in RigPresets.ids { print(id) }
    }
}

/// Output file names must promise the format written into them.
enum OutputName {
    static func check(_ name: String, option: String, writes format: String, extensions: [String], allowStandardOutput: Bool = true) throws(UsageError) {
        if allowStandardOutput && name == "-" { return }
        let lowered = name.lowercased()
        guard !extensions.contains(where: { lowered.hasSuffix($0) }) else { return }
        let names = extensions.map { "FILE\($0)" } + (allowStandardOutput ? ["- (standard output)"] : [])
        throw UsageError("\(option.isEmpty ? "" : option + " ")\(name): this writes \(format) only; name the output \(names.joined(separator: " or "))")
    }
}
