/// One problem in a JSON document, named by its path (`cameras[2].face`) and what was expected.
public struct PathError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem found in one document. Loading never stops at the first one, so a person
/// fixing a rig sees them all at once.
public struct DocumentErrors: Error, Equatable, Sendable, CustomStringConvertible {
    public var errors: [PathError]

    public init(_ errors: [PathError]) {
        self.errors = errors
    }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// Collects errors while walking a JSON document. Keeps the first `maximumKept` and counts the
/// rest, so a document with a million mistakes costs a counter, not a million messages.
final class ErrorCollector {
    static let maximumKept = 100

    private(set) var errors: [PathError] = []
    private(set) var omitted = 0

    /// Paths and messages hold text from the file (keys, ids, values): escaped and cut
    /// (`ClientText`), so a rig id with a newline or an escape sequence, or a 1 MB key, cannot
    /// forge or flood a log line.
    static let pathLimit = 256
    static let messageLimit = 2048

    func add(_ path: String, _ message: String) {
        if errors.count < Self.maximumKept {
            errors.append(PathError(path: ClientText.escaped(path, limit: Self.pathLimit), message: ClientText.escaped(message, limit: Self.messageLimit)))
        } else {
            omitted += 1
        }
    }

    /// The errors kept, then one line counting those left out.
    var reported: DocumentErrors {
        guard omitted > 0 else { return DocumentErrors(errors) }
        return DocumentErrors(errors + [PathError(path: "", message: "… and \(omitted) more problems (fix these and check again)")])
    }
}

/// A JSON value together with its path, with typed accessors that record what was wrong.
struct JSONCursor {
    let value: JSONValue
    let path: String
    let collector: ErrorCollector

    func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Reports members not in `allowed` (catches typos such as "sensorRotaton").
    func checkKeys(_ allowed: [String]) {
        guard case let .object(members) = value else { return }
        for (key, _) in members where !allowed.contains(key) {
            collector.add(child(key), "unknown field (expected one of: \(allowed.joined(separator: ", ")))")
        }
    }

    func isObject() -> Bool {
        if case .object = value { return true }
        collector.add(path, "expected an object, found \(value.kindDescription)")
        return false
    }

    func field(_ key: String) -> JSONCursor? {
        guard let member = value[key] else { return nil }
        return JSONCursor(value: member, path: child(key), collector: collector)
    }

    func required(_ key: String, _ expectation: String) -> JSONCursor? {
        guard case .object = value else { return nil }
        if let found = field(key) { return found }
        collector.add(child(key), "missing (expected \(expectation))")
        return nil
    }

    func string() -> String? {
        if case let .string(text) = value { return text }
        collector.add(path, "expected a string, found \(value.kindDescription)")
        return nil
    }

    /// A string usable as an id: ASCII letters, digits, '-' and '_', starting with a letter.
    func identifier() -> String? {
        guard let text = string() else { return nil }
        let valid = !text.isEmpty && text.count <= 64
            && text.unicodeScalars.first.map(\.isASCIILetter) == true
            && text.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        if !valid {
            collector.add(path, "invalid id \(ClientText.quoted(text)) (expected letters, digits, '-' and '_', starting with a letter, at most 64)")
            return nil
        }
        return text
    }

    func number() -> Double? {
        if let number = value.numberValue { return number }
        collector.add(path, "expected a number, found \(value.kindDescription)")
        return nil
    }

    func number(in range: ClosedRange<Double>) -> Double? {
        guard let number = number() else { return nil }
        guard range.contains(number) else {
            collector.add(path, "\(numberText(number)) is out of range (expected \(numberText(range.lowerBound)) to \(numberText(range.upperBound)))")
            return nil
        }
        return number
    }

    func integer() -> Int? {
        if case let .int(number) = value { return number }
        if case let .double(number) = value, number == number.rounded(), abs(number) < 1e15 { return Int(number) }
        collector.add(path, "expected an integer, found \(value.kindDescription)")
        return nil
    }

    func bool() -> Bool? {
        if case let .bool(flag) = value { return flag }
        collector.add(path, "expected true or false, found \(value.kindDescription)")
        return nil
    }

    func array() -> [JSONCursor]? {
        guard case let .array(elements) = value else {
            collector.add(path, "expected an array, found \(value.kindDescription)")
            return nil
        }
        return elements.enumerated().map { JSONCursor(value: $1, path: "\(path)[\($0)]", collector: collector) }
    }

    func members() -> [(String, JSONCursor)]? {
        guard case let .object(members) = value else {
            collector.add(path, "expected an object, found \(value.kindDescription)")
            return nil
        }
        return members.map { ($0, JSONCursor(value: $1, path: child($0), collector: collector)) }
    }

    /// An array of exactly `count` numbers.
    func numbers(count: Int) -> [Double]? {
        guard let elements = array() else { return nil }
        guard elements.count == count else {
            collector.add(path, "expected \(count) numbers, found \(elements.count)")
            return nil
        }
        let numbers = elements.compactMap { $0.number() }
        return numbers.count == count ? numbers : nil
    }

    func strings() -> [String]? {
        guard let elements = array() else { return nil }
        let strings = elements.compactMap { $0.string() }
        return strings.count == elements.count ? strings : nil
    }
}

/// "left, right" for messages listing what exists; long lists are cut after 20 names so that
/// an error message never grows with the document.
func listing(_ ids: [String]) -> String {
    if ids.isEmpty { return "none" }
    if ids.count <= 20 { return ids.joined(separator: ", ") }
    return ids.prefix(20).joined(separator: ", ") + " and \(ids.count - 20) more"
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

/// A number for messages: "90" rather than "90.0".
func numberText(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return value.description
}
