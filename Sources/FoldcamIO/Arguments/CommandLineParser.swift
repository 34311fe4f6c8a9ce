import FoldcamCore

/// Bad invocation: the executables exit with code 2 on it.
public struct UsageError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Reads arguments against a `CommandLineSpec`. Options may come anywhere (before or after the
/// command and its arguments); `--name=value` works too, and `--` ends the options. The first
/// problem found is thrown: an unknown option (with the nearest declared one), an option that
/// has no effect with the chosen command (with what to add), a value missing, two modes.
public enum CommandLineParser {
    public static func parse(_ arguments: [String], _ spec: CommandLineSpec) throws(UsageError) -> ParsedArguments {
        // --help wins over everything else on the line: a user asking for help gets it.
        if let help = spec.command(named: "--help"), arguments.prefix(while: { $0 != "--" }).contains(where: help.names.contains) {
            return ParsedArguments(spec: spec, command: help.name, options: [], positionals: [])
        }
        var found: [(option: OptionSpec, value: String?)] = []
        var selectors: [CommandSpec] = []
        var words: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !looksLikeOption(argument) {
                words.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if let mode = spec.commands.first(where: { $0.isFlag && $0.names.contains(name) }) {
                if inline != nil { throw UsageError("\(name) takes no value") }
                selectors.append(mode)
                continue
            }
            guard let option = spec.option(named: name) else {
                throw UsageError("unknown option \(ClientText.quoted(name))" + suggestion(name, among: allOptionNames(spec)) + " (see --help)")
            }
            guard option.takesValue else {
                if inline != nil { throw UsageError("\(name) takes no value") }
                found.append((option, nil))
                continue
            }
            if let inline {
                found.append((option, inline))
            } else if index < arguments.count, !looksLikeOption(arguments[index]) {
                found.append((option, arguments[index]))
                index += 1
            } else {
                throw UsageError("\(name) needs a value (\(option.valueName ?? "VALUE"))")
            }
        }

        let command = try chooseCommand(selectors: selectors, words: &words, spec)
        try check(found, for: command, spec)
        return ParsedArguments(spec: spec, command: command.name, options: found.map { ($0.option.name, $0.value) }, positionals: words)
    }

    /// "-o" and "--json" are options; "-", "-5" and "-.5" are arguments (standard input, numbers).
    public static func looksLikeOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), let next = argument.dropFirst().first else { return false }
        return !next.isNumber && next != "."
    }

    private static func chooseCommand(selectors: [CommandSpec], words: inout [String], _ spec: CommandLineSpec) throws(UsageError) -> CommandSpec {
        let wordCommands = spec.commands.filter { !$0.isFlag && $0.name != spec.defaultCommand }
        let matched = wordCommands
            .filter { words.starts(with: $0.words) }
            .max { $0.words.count < $1.words.count }
        var distinctSelectors: [CommandSpec] = []
        for selector in selectors where !distinctSelectors.contains(where: { $0.name == selector.name }) {
            distinctSelectors.append(selector)
        }
        let chosen = distinctSelectors + (matched.map { [$0] } ?? [])
        if chosen.count > 1 {
            throw UsageError("\(chosen[0].name) and \(chosen[1].name) cannot be combined (see --help)")
        }
        if let only = chosen.first {
            words.removeFirst(only.words.count)
            return only
        }
        if let first = words.first, !wordCommands.isEmpty {
            // A group such as "rig" or "sim" whose second word is missing or wrong.
            let group = wordCommands.filter { $0.words.count > 1 && $0.words[0] == first }
            if !group.isEmpty {
                let choices = group.map { $0.words[1] }
                guard words.count > 1 else {
                    throw UsageError("\(first): expected \(list(choices, conjunction: "or")) (see --help)")
                }
                throw UsageError("unknown \(first) command \(ClientText.quoted(words[1]))" + suggestion(words[1], among: choices)
                    + " (expected \(list(choices, conjunction: "or")); see --help)")
            }
            let firstWords = wordCommands.map { $0.words[0] }
            throw UsageError("unknown command \(ClientText.quoted(first))" + suggestion(first, among: firstWords) + " (see --help)")
        }
        if let name = spec.defaultCommand, let command = spec.command(named: name) { return command }
        throw UsageError("no command given (see --help)")
    }

    private static func check(_ found: [(option: OptionSpec, value: String?)], for command: CommandSpec, _ spec: CommandLineSpec) throws(UsageError) {
        let given = Set(found.map(\.option.name))
        var seen: Set<String> = []
        for (option, _) in found {
            if !seen.insert(option.name).inserted, !option.isRepeatable {
                throw UsageError("\(option.name) given more than once")
            }
            if !option.applies(to: command.name) {
                throw UsageError(noEffect(option, command: command, given: given, spec))
            }
            if let required = option.requires, !given.contains(required) {
                throw UsageError("\(option.name) has no effect without \(required): add \(required) (see --help)")
            }
        }
        for option in spec.options where option.requiredBy.contains(command.name) && !given.contains(option.name) {
            throw UsageError("\(describe(command, spec)) needs \(option.synopsis) (see --help)")
        }
    }

    /// "--cycles has no effect without --simulate --sweep: add them", or which commands it is for.
    private static func noEffect(_ option: OptionSpec, command: CommandSpec, given: Set<String>, _ spec: CommandLineSpec) -> String {
        let targets = option.commands ?? []
        if command.name == spec.defaultCommand, targets.count == 1, targets[0].hasPrefix("-") {
            var missing = [targets[0]]
            if let required = option.requires, !given.contains(required) { missing.append(required) }
            return "\(option.name) has no effect without \(missing.joined(separator: " ")): add \(missing.count == 1 ? missing[0] : "them") (see --help)"
        }
        let places = targets.compactMap { spec.command(named: $0) }.map { describe($0, spec) }
        let here = (command.isFlag || command.name == spec.defaultCommand ? "in " : "with ") + describe(command, spec)
        let there = places.count > 4 ? "\(places.count) other commands" : list(places, conjunction: "and")
        return "\(option.name) has no effect \(here); it applies to \(there) (see --help)"
    }

    static func describe(_ command: CommandSpec, _ spec: CommandLineSpec) -> String {
        if command.name == spec.defaultCommand { return "the default mode (no mode option)" }
        return command.isFlag ? "\(command.name) mode" : "\"\(command.name)\""
    }

    private static func allOptionNames(_ spec: CommandLineSpec) -> [String] {
        spec.options.flatMap(\.names) + spec.commands.filter(\.isFlag).flatMap(\.names)
    }

    private static func suggestion(_ name: String, among candidates: [String]) -> String {
        NearestName.suggestion(for: name, among: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    static func list(_ items: [String], conjunction: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items[items.count - 1]
    }
}
