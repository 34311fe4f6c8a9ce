/// A small argument reader shared by the executables: subcommands, flags, `--name value`
/// options (repeatable ones too) and positional arguments, in any order, with every leftover
/// argument reported as an error.
public struct CommandLineArguments {
    /// Bad invocation: the executables exit with code 2 on it.
    public struct UsageError: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    private var remaining: [String]

    public init(_ arguments: [String]) {
        remaining = arguments
    }

    /// True when nothing is left to read.
    public var isEmpty: Bool { remaining.isEmpty }

    public mutating func takeSubcommand(_ name: String) -> Bool {
        guard remaining.first == name else { return false }
        remaining.removeFirst()
        return true
    }

    public mutating func takeFlag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// The value after `name`, unless that looks like another option ("-o", not "-5" or "-"),
    /// so a forgotten value is reported instead of swallowing the next option.
    public mutating func takeValue(_ name: String) -> String? {
        guard let index = remaining.firstIndex(of: name), index + 1 < remaining.count,
              !Self.looksLikeOption(remaining[index + 1]) else { return nil }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        return value
    }

    /// Every value of a repeatable option, in order.
    public mutating func takeValues(_ name: String) throws -> [String] {
        var values: [String] = []
        while let value = takeValue(name) { values.append(value) }
        if remaining.contains(name) { throw UsageError(description: "\(name) needs a value") }
        return values
    }

    public mutating func requireValue(_ name: String) throws -> String {
        if let value = takeValue(name) { return value }
        throw UsageError(description: remaining.contains(name) ? "\(name) needs a value" : "missing \(name) (see --help)")
    }

    public mutating func takeInt(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = takeValue(name) else {
            if remaining.contains(name) { throw UsageError(description: "\(name) needs a value") }
            return nil
        }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "\(name) \(text): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The first argument that is not an option (a lone "-" counts as one: standard input, and
    /// so does a negative number such as "-9.8"). Take options first, so their values are not
    /// mistaken for positionals.
    public mutating func takePositional() -> String? {
        guard let index = remaining.firstIndex(where: { !Self.looksLikeOption($0) }) else { return nil }
        return remaining.remove(at: index)
    }

    public mutating func requirePositional(_ what: String) throws -> String {
        if let value = takePositional() { return value }
        throw UsageError(description: "missing \(what) (see --help)")
    }

    static func looksLikeOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), let next = argument.dropFirst().first else { return false }
        return !next.isNumber && next != "."
    }

    public func finish() throws {
        if let extra = remaining.first {
            throw UsageError(description: "unexpected argument \"\(extra)\" (see --help)")
        }
    }
}
