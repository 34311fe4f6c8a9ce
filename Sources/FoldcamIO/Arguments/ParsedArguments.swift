/// The outcome of `CommandLineParser.parse`: the chosen command, the options given (already
/// checked against the spec) and the positional arguments, which the command reads in order.
public struct ParsedArguments: Sendable {
    public let spec: CommandLineSpec
    /// The chosen command's name as declared (`"status"`, `"rig render"`, `"--probe"`).
    public let command: String
    private let options: [(name: String, value: String?)]
    private var positionals: [String]

    init(spec: CommandLineSpec, command: String, options: [(name: String, value: String?)], positionals: [String]) {
        self.spec = spec
        self.command = command
        self.options = options
        self.positionals = positionals
    }

    public func flag(_ name: String) -> Bool {
        declared(name)
        return options.contains { $0.name == name }
    }

    public func value(_ name: String) -> String? {
        declared(name)
        return options.last { $0.name == name }?.value
    }

    /// Every value of a repeatable option, in order.
    public func values(_ name: String) -> [String] {
        declared(name)
        return options.filter { $0.name == name }.compactMap(\.value)
    }

    /// The value of an option the spec marks as required by this command.
    public func requiredValue(_ name: String) throws(UsageError) -> String {
        guard let value = value(name) else { throw UsageError("missing \(name) (see --help)") }
        return value
    }

    public func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(name) \(text): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The next positional argument, if any.
    public mutating func takePositional() -> String? {
        positionals.isEmpty ? nil : positionals.removeFirst()
    }

    public mutating func requirePositional(_ what: String) throws(UsageError) -> String {
        if let value = takePositional() { return value }
        throw UsageError("missing \(what) (see --help)")
    }

    /// Throws when a positional argument was left unread.
    public func finish() throws(UsageError) {
        if let extra = positionals.first {
            throw UsageError("unexpected argument \"\(extra)\" (see --help)")
        }
    }

    /// Reading an option the spec does not declare is a programming error: the table and the
    /// code that reads it would have drifted apart.
    private func declared(_ name: String) {
        precondition(spec.option(named: name) != nil, "\(name) is not declared in \(spec.program)'s CommandLineSpec")
    }
}
