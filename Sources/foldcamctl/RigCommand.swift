import FoldcamCore
import FoldcamIO
import FoldcamRender
import Foundation

/// `foldcamctl rig ...`: look at rig descriptions (presets or files) without running the daemon.
enum RigCommand {
    /// The output file could not be written (exit code 1: the input was fine).
    struct OutputError: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ arguments: inout CommandLineArguments) throws {
        if arguments.takeSubcommand("render") {
            let settings = try arguments.takeValues("--hinge")
            let output = try arguments.requireValue("-o")
            let spec = try arguments.requirePositional("rig (a preset id or a .json file)")
            try arguments.finish()
            try render(spec: spec, settings: settings, output: output)
        } else if arguments.takeSubcommand("show") {
            let id = try arguments.requirePositional("preset id")
            try arguments.finish()
            guard let json = RigPresets.json(id) else {
                throw CommandLineArguments.UsageError(description: "unknown preset \"\(id)\" (presets: \(RigPresets.ids.joined(separator: ", ")))")
            }
            print(json, terminator: json.hasSuffix("\n") ? "" : "\n")
        } else if arguments.takeSubcommand("list") {
            try arguments.finish()
            for id in RigPresets.ids { print(id) }
        } else {
            throw CommandLineArguments.UsageError(description: "rig: expected render, show or list (see --help)")
        }
    }

    private static func render(spec: String, settings: [String], output: String) throws {
        let rig = try RigLoader.load(spec)
        let angles = try HingeSettings.angles(for: rig, settings: settings)
        let svg = RigRenderer.svg(rig: rig, angles: angles)
        if output == "-" {
            FileHandle.standardOutput.write(Data(svg.utf8))
        } else if !FileManager.default.createFile(atPath: output, contents: Data(svg.utf8)) {
            throw OutputError(description: "cannot write \(output) (check that its directory exists and is writable)")
        }
    }
}
