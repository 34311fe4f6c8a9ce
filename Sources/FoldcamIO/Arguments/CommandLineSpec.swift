/// What an executable accepts, declared once: its commands (or modes), its options and which
/// commands each option applies to, and its exit codes. `CommandLineParser` reads arguments
/// against it and `UsageText` prints `--help` from it, so the two cannot disagree.
public struct CommandLineSpec: Sendable {
    public var program: String
    /// One line under the synopsis saying what the program is.
    public var summary: String
    public var commands: [CommandSpec]
    public var options: [OptionSpec]
    /// The command run when the arguments name none (foldcamd serves the hardware); nil means
    /// a command is required.
    public var defaultCommand: String?
    public var exitCodes: [ExitCode]
    /// Free text printed at the end of `--help` (built-in rigs, signals, ...).
    public var notes: [String]

    public init(program: String, summary: String, commands: [CommandSpec], options: [OptionSpec],
                defaultCommand: String? = nil, exitCodes: [ExitCode], notes: [String] = []) {
        self.program = program
        self.summary = summary
        self.commands = commands
        self.options = options
        self.defaultCommand = defaultCommand
        self.exitCodes = exitCodes
        self.notes = notes
        validate()
    }

    /// A table that names a command or option it does not declare is a programming error
    /// (an option tied to a misspelt command would silently apply nowhere).
    private func validate() {
        let commandNames = Set(commands.map(\.name))
        let optionNames = options.flatMap(\.names)
        let allNames = optionNames + commands.flatMap(\.names)
        precondition(Set(allNames).count == allNames.count, "\(program): a name is declared twice")
        precondition(defaultCommand.map(commandNames.contains) ?? true, "\(program): unknown default command")
        for option in options {
            for name in (option.commands ?? []) + option.requiredBy {
                precondition(commandNames.contains(name), "\(program): \(option.name) names unknown command \(name)")
            }
            precondition(option.requires.map(optionNames.contains) ?? true, "\(program): \(option.name) requires an undeclared option")
        }
    }

    public func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    public func option(named name: String) -> OptionSpec? {
        options.first { $0.names.contains(name) }
    }

    /// The options that apply to `command`, in declaration order.
    public func options(for command: String) -> [OptionSpec] {
        options.filter { $0.applies(to: command) }
    }
}

/// A command or mode. Its name is either words (`status`, `rig render`, `sim hinge`) or one
/// flag (`--probe`): a flag-named command is a mode chosen by that flag, anywhere on the line.
public struct CommandSpec: Sendable {
    public var name: String
    /// The positional part of the synopsis, e.g. "D DEG" or "[TOPIC ...]".
    public var arguments: String
    public var help: String
    /// The `--help` heading it is listed under.
    public var section: String
    /// Other flags that choose it ("-h" for "--help").
    public var aliases: [String]

    public init(_ name: String, aliases: [String] = [], arguments: String = "", section: String = "commands", help: String) {
        self.name = name
        self.aliases = aliases
        self.arguments = arguments
        self.help = help
        self.section = section
    }

    public var isFlag: Bool { name.hasPrefix("-") }
    public var names: [String] { [name] + aliases }
    public var words: [String] { isFlag ? [] : name.split(separator: " ").map(String.init) }
}

/// One option: its names, whether it takes a value, the commands it applies to and, when it
/// only makes sense next to another option, which one (`--cycles` needs `--sweep`).
public struct OptionSpec: Sendable {
    public enum Kind: Sendable, Equatable {
        case flag
        /// Takes one value; the string names it in usage text ("PATH", "N").
        case value(String)
        /// May be given several times, each with a value.
        case repeated(String)
    }

    /// The first name is the canonical one ("--help"); the others are aliases ("-h").
    public var names: [String]
    public var kind: Kind
    public var help: String
    /// The commands (names as in `CommandSpec.name`) it applies to; nil: every command.
    public var commands: [String]?
    /// Another option that must be given too, or this one has no effect.
    public var requires: String?
    /// Commands that cannot run without it.
    public var requiredBy: [String]
    /// Shown in the top synopsis line ("foldcamctl [--socket PATH] [--json] COMMAND") rather
    /// than beside each command.
    public var global: Bool

    public init(_ names: String..., kind: Kind = .flag, commands: [String]? = nil, requires: String? = nil,
                requiredBy: [String] = [], global: Bool = false, help: String) {
        self.names = names
        self.kind = kind
        self.help = help
        self.commands = commands
        self.requires = requires
        self.requiredBy = requiredBy
        self.global = global
    }

    public var name: String { names[0] }
    public var takesValue: Bool { kind != .flag }

    public var isRepeatable: Bool {
        if case .repeated = kind { return true }
        return false
    }

    public var valueName: String? {
        switch kind {
        case .flag: return nil
        case let .value(name), let .repeated(name): return name
        }
    }

    public func applies(to command: String) -> Bool {
        commands?.contains(command) ?? true
    }

    /// "--socket PATH", "-o FILE", "--json".
    public var synopsis: String {
        valueName.map { "\(name) \($0)" } ?? name
    }
}

/// One row of the exit-code table printed by `--help` and documented in the man pages.
public struct ExitCode: Sendable {
    public var code: Int32
    public var meaning: String

    public init(_ code: Int32, _ meaning: String) {
        self.code = code
        self.meaning = meaning
    }
}
