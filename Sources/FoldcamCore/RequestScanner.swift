/// Reads the common request lines straight from their bytes, without building a `JSONValue`
/// tree of the whole line: `{"id":7,"method":"directions"}`, and the like with a flat `params`
/// of plain strings, integers, booleans and null (`{"display":"outer"}`,
/// `{"hinge":"main","angle":90}`). Parsing the tree was the largest part of a request's own
/// cost under perf.
///
/// The scanner decides nothing: anything outside that shape (an escape or a non-ASCII byte in a
/// string, a fraction or exponent, nesting, a duplicate or unknown member, a missing id or
/// method, any syntax error, an over-long line or id) returns nil, and `WireProtocol` hands the
/// line to the full parser, which gives every error reply. A line the scanner accepts parses to
/// the same `Request` through `JSONParser` (WireProtocolScannerTests and the request fuzz target
/// check it on every line they make, and debug builds on every request they serve).
enum RequestScanner {
    /// More params than this, and the full parser's set-based duplicate check is the cheaper one.
    static let maximumParams = 8

    static func scan(_ line: ArraySlice<UInt8>) -> WireProtocol.Request? {
        guard line.count <= WireProtocol.maximumLineBytes else { return nil }
        return line.withUnsafeBufferPointer { bytes in
            var cursor = Cursor(bytes: bytes)
            return cursor.request()
        }
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        /// `{` members `}` and nothing after it but whitespace.
        mutating func request() -> WireProtocol.Request? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var id: JSONValue?
            var method: String?
            var params: JSONValue?
            repeat {
                skipWhitespace()
                guard let key = plainString() else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                if Self.equal(key, "id") {
                    guard id == nil, let value = requestID() else { return nil }
                    id = value
                } else if Self.equal(key, "method") {
                    guard method == nil, let name = plainString(), !name.isEmpty else { return nil }
                    method = String(decoding: name, as: UTF8.self)
                } else if Self.equal(key, "params") {
                    guard params == nil, let members = flatObject() else { return nil }
                    params = members
                } else {
                    return nil
                }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
            skipWhitespace()
            guard index == bytes.count, let id, let method else { return nil }
            return WireProtocol.Request(id: id, method: method, params: params ?? .object([]))
        }

        /// A string of printable ASCII without escapes, its bytes between the quotes.
        mutating func plainString() -> UnsafeBufferPointer<UInt8>.SubSequence? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while let byte = current, byte != UInt8(ascii: "\"") {
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            guard take(UInt8(ascii: "\"")) else { return nil }
            return bytes[start..<index - 1]
        }

        /// `-`? (`0` | [1-9][0-9]*) of at most `maximumDigits` digits, which `Int` holds exactly
        /// (as the full parser reads it: no fraction, no exponent).
        mutating func integer(maximumDigits: Int) -> Int? {
            let negative = take(UInt8(ascii: "-"))
            guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
            var value = 0
            var digits = 0
            if first == UInt8(ascii: "0") {
                index += 1
                digits = 1
            } else {
                while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    digits += 1
                    guard digits <= maximumDigits else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                    index += 1
                }
            }
            // A fraction or exponent (even 2.0 or 1e3) is the full parser's.
            if let next = current, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
            return negative ? -value : value
        }

        /// An integer within ±10^15 (15 digits are under it) or a string of at most
        /// `WireProtocol.maximumIDBytes`: the ids `parseRequest` accepts as they are.
        mutating func requestID() -> JSONValue? {
            if current == UInt8(ascii: "\"") {
                guard let text = plainString(), text.count <= WireProtocol.maximumIDBytes else { return nil }
                return .string(String(decoding: text, as: UTF8.self))
            }
            return integer(maximumDigits: 15).map { .int($0) }
        }

        /// `{}` or an object of distinct members whose values are plain strings, integers of up
        /// to 18 digits, true, false or null.
        mutating func flatObject() -> JSONValue? {
            guard take(UInt8(ascii: "{")) else { return nil }
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return .object([]) }
            var members: [(String, JSONValue)] = []
            repeat {
                skipWhitespace()
                guard members.count < RequestScanner.maximumParams, let key = plainString() else { return nil }
                let name = String(decoding: key, as: UTF8.self)
                guard !members.contains(where: { $0.0 == name }) else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = scalar() else { return nil }
                members.append((name, value))
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
            return .object(members)
        }

        mutating func scalar() -> JSONValue? {
            switch current {
            case UInt8(ascii: "\""): return plainString().map { .string(String(decoding: $0, as: UTF8.self)) }
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return integer(maximumDigits: 18).map { .int($0) }
            }
        }

        mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count, Self.equal(bytes[index..<index + count], text) else { return nil }
            index += count
            return value
        }

        /// Compared as buffers: a String's UTF-8 view is walked a byte at a time.
        static func equal(_ scanned: UnsafeBufferPointer<UInt8>.SubSequence, _ text: StaticString) -> Bool {
            scanned.count == text.utf8CodeUnitCount && scanned.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
    }
}
