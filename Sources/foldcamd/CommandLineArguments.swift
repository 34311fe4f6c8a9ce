/// A small argument reader: flags and `--name value` options, in any order, with every
/// leftover argument reported as an error.
struct CommandLineArguments {
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    private var remaining: [String]

    init(_ arguments: [String]) {
        remaining = arguments
    }

    mutating func takeSubcommand(_ name: String) -> Bool {
        guard remaining.first == name else { return false }
        remaining.removeFirst()
        return true
    }

    mutating func takeFlag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    mutating func takeValue(_ name: String) -> String? {
        guard let index = remaining.firstIndex(of: name), index + 1 < remaining.count else { return nil }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        return value
    }

    mutating func requireValue(_ name: String) throws -> String {
        if let value = takeValue(name) { return value }
        throw UsageError(description: remaining.contains(name) ? "\(name) needs a value" : "missing \(name) (see --help)")
    }

    mutating func takeInt(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = takeValue(name) else {
            if remaining.contains(name) { throw UsageError(description: "\(name) needs a value") }
            return nil
        }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "\(name) \(text): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    func finish() throws {
        if let extra = remaining.first {
            throw UsageError(description: "unexpected argument \"\(extra)\" (see --help)")
        }
    }
}
