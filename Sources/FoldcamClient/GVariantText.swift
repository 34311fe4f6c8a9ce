/// Reads the GVariant text `gdbus call` prints (tuples, arrays, dictionaries, strings, numbers,
/// booleans, `<variants>`, type annotations such as `uint32` and `@a{sv}`), enough for
/// mutter's `GetCurrentState` reply. Dictionaries become lists of key/value pairs.
public indirect enum GVariantText: Equatable, Sendable {
    case tuple([GVariantText])
    case array([GVariantText])
    case dictionary([(GVariantText, GVariantText)])
    case string(String)
    case number(Double)
    case bool(Bool)

    public struct ParseError: Error, CustomStringConvertible {
        public var description: String
    }

    public static func parse(_ text: String) throws(ParseError) -> GVariantText {
        var reader = Reader(bytes: Array(text.utf8))
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.error("unexpected text after the value") }
        return value
    }

    public var stringValue: String? { if case let .string(text) = self { text } else { nil } }
    public var numberValue: Double? { if case let .number(value) = self { value } else { nil } }
    public var boolValue: Bool? { if case let .bool(value) = self { value } else { nil } }
    /// The members of a tuple or an array.
    public var items: [GVariantText] {
        switch self {
        case let .tuple(items), let .array(items): items
        default: []
        }
    }

    /// A dictionary's value for a string key.
    public subscript(key: String) -> GVariantText? {
        guard case let .dictionary(pairs) = self else { return nil }
        return pairs.first { $0.0 == .string(key) }?.1
    }

    public static func == (a: GVariantText, b: GVariantText) -> Bool {
        switch (a, b) {
        case let (.tuple(x), .tuple(y)), let (.array(x), .array(y)): return x == y
        case let (.dictionary(x), .dictionary(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case let (.string(x), .string(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.bool(x), .bool(y)): return x == y
        default: return false
        }
    }

    struct Reader {
        let bytes: [UInt8]
        var index = 0

        func error(_ what: String) -> ParseError { ParseError(description: "GVariant text at byte \(index): \(what)") }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0a || bytes[index] == 0x09 { index += 1 }
        }

        mutating func value() throws(ParseError) -> GVariantText {
            skipSpace()
            guard index < bytes.count else { throw error("the text ends where a value should be") }
            switch bytes[index] {
            case UInt8(ascii: "("): return .tuple(try list(until: UInt8(ascii: ")")))
            case UInt8(ascii: "["): return .array(try list(until: UInt8(ascii: "]")))
            case UInt8(ascii: "<"):
                index += 1
                let inner = try value()
                try expect(UInt8(ascii: ">"))
                return inner
            case UInt8(ascii: "{"): return try dictionary()
            case UInt8(ascii: "'"), UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "@"):
                // A type annotation (`@a{sv}`): skip the type, read the value.
                while index < bytes.count, bytes[index] != 0x20 { index += 1 }
                return try value()
            default: return try word()
            }
        }

        mutating func expect(_ byte: UInt8) throws(ParseError) {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { throw error("expected \"\(Character(Unicode.Scalar(byte)))\"") }
            index += 1
        }

        mutating func list(until close: UInt8) throws(ParseError) -> [GVariantText] {
            index += 1
            var items: [GVariantText] = []
            skipSpace()
            if index < bytes.count, bytes[index] == close {
                index += 1
                return items
            }
            while true {
                items.append(try value())
                skipSpace()
                guard index < bytes.count else { throw error("unclosed list") }
                if bytes[index] == close {
                    index += 1
                    return items
                }
                try expect(UInt8(ascii: ","))
                skipSpace()
                // A one-element tuple is written `(x,)`.
                if index < bytes.count, bytes[index] == close {
                    index += 1
                    return items
                }
            }
        }

        mutating func dictionary() throws(ParseError) -> GVariantText {
            index += 1
            var pairs: [(GVariantText, GVariantText)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .dictionary(pairs)
            }
            while true {
                let key = try value()
                try expect(UInt8(ascii: ":"))
                pairs.append((key, try value()))
                skipSpace()
                guard index < bytes.count else { throw error("unclosed dictionary") }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .dictionary(pairs)
                }
                try expect(UInt8(ascii: ","))
            }
        }

        mutating func string() throws(ParseError) -> String {
            let quote = bytes[index]
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == quote { return String(decoding: out, as: UTF8.self) }
                if byte == UInt8(ascii: "\\"), index < bytes.count {
                    out.append(bytes[index])
                    index += 1
                } else {
                    out.append(byte)
                }
            }
            throw error("unclosed string")
        }

        /// A number, a boolean, or a type word (`uint32`, `objectpath`) before a value.
        mutating func word() throws(ParseError) -> GVariantText {
            let start = index
            while index < bytes.count, !" ,)]}>:".utf8.contains(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "byte", "int16", "uint16", "int32", "uint32", "int64", "uint64", "handle", "double", "objectpath", "signature":
                return try value()
            default:
                guard let number = Double(text) ?? Int(text, radix: 16, hexPrefixed: true).map(Double.init) else {
                    throw error("unexpected \"\(text)\"")
                }
                return .number(number)
            }
        }
    }
}

extension Int {
    init?(_ text: String, radix: Int, hexPrefixed: Bool) {
        guard hexPrefixed, text.hasPrefix("0x") else { return nil }
        self.init(text.dropFirst(2), radix: radix)
    }
}
