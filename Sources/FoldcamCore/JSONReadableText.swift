/// JSON laid out as the model and rig files are written by hand: the top level one member per
/// line, and below it any value that fits on its line kept on one line (`{"hinge": "lid",
/// "iioName": "hinge"}`, a mount matrix's nine numbers), larger ones opened up.
extension JSONValue {
    public func readableText(width: Int = 100) -> String {
        var output = ""
        writeReadable(into: &output, level: 0, used: 0, width: width)
        return output
    }

    /// One line, with a space after each ":" and ",".
    var spacedText: String {
        switch self {
        case let .array(elements):
            return "[" + elements.map(\.spacedText).joined(separator: ", ") + "]"
        case let .object(members):
            return "{" + members.map { JSONValue.string($0.0).compactText + ": " + $0.1.spacedText }.joined(separator: ", ") + "}"
        default:
            return compactText
        }
    }

    /// `used`: the columns already taken on the current line (indentation and the member's name).
    private func writeReadable(into output: inout String, level: Int, used: Int, width: Int) {
        let line = spacedText
        let opened: [(String?, JSONValue)]
        let brackets: (String, String)
        switch self {
        case let .array(elements) where !elements.isEmpty:
            opened = elements.map { (nil, $0) }
            brackets = ("[", "]")
        case let .object(members) where !members.isEmpty:
            opened = members.map { ($0.0, $0.1) }
            brackets = ("{", "}")
        default:
            output += line
            return
        }
        if level > 0 && used + line.count <= width {
            output += line
            return
        }
        let indent = String(repeating: "  ", count: level + 1)
        output += brackets.0 + "\n"
        for (index, (name, value)) in opened.enumerated() {
            let label = name.map { JSONValue.string($0).compactText + ": " } ?? ""
            output += indent + label
            value.writeReadable(into: &output, level: level + 1, used: indent.count + label.count + 1, width: width)
            output += index < opened.count - 1 ? ",\n" : "\n"
        }
        output += String(repeating: "  ", count: level) + brackets.1
    }
}
