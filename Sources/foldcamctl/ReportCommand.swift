import FoldcamIO
import FoldcamReport

/// `foldcamctl report [-o FILE.txt]`: what a device model needs, as one redacted text file
/// (docs/devices.md, "Contributing a model"). Needs no daemon; run it as root to read every node.
enum ReportCommand {
    static let writableExtensions = [".txt"]

    static func run(_ arguments: inout ParsedArguments) throws {
        let output = arguments.value("-o") ?? "-"
        try arguments.finish()
        try OutputName.check(output, option: "-o", writes: "text", extensions: writableExtensions)
        let text = SystemReport.text()
        if output == "-" {
            StandardOutput.write(text)
        } else {
            do {
                try OutputFile.write(Array(text.utf8), to: output)
            } catch {
                throw OutputError(description: "cannot write \(output) (check that its directory exists and is writable)")
            }
        }
    }
}
