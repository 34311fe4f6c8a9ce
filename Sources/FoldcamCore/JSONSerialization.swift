extension JSONValue {
    /// Compact single-line JSON (for JSON lines output and the wire protocol).
    public var compactText: String {
        String(decoding: compactUTF8, as: UTF8.self)
    }

    /// Human-readable JSON with two-space indentation.
    public var prettyText: String {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        write(to: &output, indent: Array("  ".utf8), level: 0)
        return String(decoding: output, as: UTF8.self)
    }

    /// `compactText` as UTF-8 bytes, without building a `String`.
    public var compactUTF8: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output, indent: nil, level: 0)
        return output
    }

    /// Appends the compact encoding to `output` (to build a line in one buffer).
    func write(compactTo output: inout [UInt8]) {
        write(to: &output, indent: nil, level: 0)
    }

    /// One JSON-lines record: the compact text and a newline, as UTF-8 bytes.
    public var jsonLine: [UInt8] {
        var output = compactUTF8
        output.append(UInt8(ascii: "\n"))
        return output
    }

    // The writer appends bytes to an array: appending to a String one piece at a time costs a
    // uniqueness check, a capacity check and an ASCII-flag update per call.
    private func write(to output: inout [UInt8], indent: [UInt8]?, level: Int) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case let .bool(value): output.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case let .int(value): output.append(contentsOf: String(value).utf8)
        case let .double(value): output.append(contentsOf: JSONValue.format(value).utf8)
        case let .string(value): JSONValue.writeString(value, to: &output)
        case let .array(elements):
            output.append(UInt8(ascii: "["))
            guard !elements.isEmpty else {
                output.append(UInt8(ascii: "]"))
                return
            }
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(indent, level: level + 1, to: &output)
                element.write(to: &output, indent: indent, level: level + 1)
            }
            Self.newline(indent, level: level, to: &output)
            output.append(UInt8(ascii: "]"))
        case let .object(members):
            output.append(UInt8(ascii: "{"))
            guard !members.isEmpty else {
                output.append(UInt8(ascii: "}"))
                return
            }
            for (position, member) in members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(indent, level: level + 1, to: &output)
                JSONValue.writeString(member.0, to: &output)
                output.append(UInt8(ascii: ":"))
                if indent != nil { output.append(UInt8(ascii: " ")) }
                member.1.write(to: &output, indent: indent, level: level + 1)
            }
            Self.newline(indent, level: level, to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Pretty printing only: a newline and `level` indents.
    private static func newline(_ indent: [UInt8]?, level: Int, to output: inout [UInt8]) {
        guard let indent else { return }
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<level { output.append(contentsOf: indent) }
    }

    /// Non-finite numbers cannot be represented in JSON; they print as null.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return value.description
    }

    /// A JSON string literal. Runs of bytes that need no escaping are copied in one go; only
    /// `"`, `\` and control characters are escaped (every byte of a multi-byte UTF-8 sequence
    /// is >= 0x80, so scanning bytes never splits a character).
    static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                runStart = index + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "\n"): output.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): output.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): output.append(UInt8(ascii: "t"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            if runStart < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        output.append(UInt8(ascii: "\""))
    }
}
