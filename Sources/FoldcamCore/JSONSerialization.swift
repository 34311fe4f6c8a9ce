extension JSONValue {
    /// Compact single-line JSON (for JSON lines output and the wire protocol).
    public var compactText: String {
        var output = ""
        write(to: &output, indent: nil, level: 0)
        return output
    }

    /// Human-readable JSON with two-space indentation.
    public var prettyText: String {
        var output = ""
        write(to: &output, indent: "  ", level: 0)
        return output
    }

    private func write(to output: inout String, indent: String?, level: Int) {
        switch self {
        case .null: output += "null"
        case let .bool(value): output += value ? "true" : "false"
        case let .int(value): output += String(value)
        case let .double(value): output += JSONValue.format(value)
        case let .string(value): JSONValue.writeString(value, to: &output)
        case let .array(elements):
            writeContainer(elements.map { (nil, $0) }, open: "[", close: "]", to: &output, indent: indent, level: level)
        case let .object(members):
            writeContainer(members.map { ($0.0, $0.1) }, open: "{", close: "}", to: &output, indent: indent, level: level)
        }
    }

    private func writeContainer(
        _ items: [(String?, JSONValue)], open: String, close: String,
        to output: inout String, indent: String?, level: Int
    ) {
        output += open
        guard !items.isEmpty else {
            output += close
            return
        }
        for (position, (key, value)) in items.enumerated() {
            if position > 0 { output += indent == nil ? "," : "," }
            if let indent {
                output += "\n" + String(repeating: indent, count: level + 1)
            }
            if let key {
                JSONValue.writeString(key, to: &output)
                output += indent == nil ? ":" : ": "
            }
            value.write(to: &output, indent: indent, level: level + 1)
        }
        if let indent {
            output += "\n" + String(repeating: indent, count: level)
        }
        output += close
    }

    /// Non-finite numbers cannot be represented in JSON; they print as null.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return value.description
    }

    static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
