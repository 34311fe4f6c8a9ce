/// `--help` text generated from a `CommandLineSpec`: synopsis, commands by section with the
/// options each takes, every option with its help, the exit codes and the notes.
public enum UsageText {
    /// Width of the name column; longer names put their help on the next line.
    static let column = 34
    static let width = 100

    public static func render(_ spec: CommandLineSpec) -> String {
        var lines = synopsis(spec)
        lines += wrap(spec.summary, prefix: "")
        var sections: [String] = []
        for command in spec.commands where !sections.contains(command.section) { sections.append(command.section) }
        let perLine = spec.options.contains(where: \.global)
        for section in sections {
            lines += ["", "\(section):"]
            for command in spec.commands where command.section == section {
                let name = command.name == spec.defaultCommand ? "(no mode option)" : command.names.joined(separator: ", ")
                let shown = perLine ? commandSynopsis(command, spec, named: name) : ([name] + (command.arguments.isEmpty ? [] : [command.arguments])).joined(separator: " ")
                lines += row(shown, command.help)
            }
        }
        lines += ["", "options:"]
        for option in spec.options {
            var help = option.help
            if !option.global, let commands = option.commands, commands.count <= 3 {
                let names = commands.map { $0 == spec.defaultCommand ? "no mode option" : $0 }
                help += " [\(CommandLineParser.list(names, conjunction: "or"))]"
            }
            lines += row(([option.synopsis] + option.names.dropFirst()).joined(separator: ", "), help)
        }
        lines += ["", "exit codes:"]
        for exit in spec.exitCodes { lines += row("\(exit.code)", exit.meaning, indent: 2, column: 6) }
        if !spec.notes.isEmpty { lines += [""] + spec.notes }
        return lines.joined(separator: "\n")
    }

    /// With global options: one line naming them and COMMAND (the sections show each command's
    /// own options). Without: one line per command, flag-only commands sharing the last line.
    static func synopsis(_ spec: CommandLineSpec) -> [String] {
        let globals = spec.options.filter(\.global).map { "[\($0.synopsis)]" }
        var forms: [String] = []
        var bare: [String] = []
        if !globals.isEmpty {
            forms.append((globals + ["COMMAND [ARGUMENTS]"]).joined(separator: " "))
            bare = spec.commands.filter { $0.isFlag }.map(\.name)
        } else {
            for command in spec.commands {
                let own = commandSynopsis(command, spec, named: command.name == spec.defaultCommand ? "" : command.name)
                if command.isFlag && own == command.name { bare.append(command.name) } else { forms.append(own) }
            }
        }
        if !bare.isEmpty { forms.append(bare.joined(separator: " | ")) }
        return forms.enumerated().map { index, form in (index == 0 ? "usage: " : "       ") + "\(spec.program) \(form)" }
    }

    static func commandSynopsis(_ command: CommandSpec, _ spec: CommandLineSpec, named name: String) -> String {
        var parts = name.isEmpty ? [] : [name]
        for option in spec.options(for: command.name) where !option.global && option.commands != nil {
            let required = option.requiredBy.contains(command.name)
            let text = option.isRepeatable ? "\(option.synopsis) ..." : option.synopsis
            parts.append(required ? text : "[\(text)]")
        }
        if !command.arguments.isEmpty { parts.append(command.arguments) }
        return parts.joined(separator: " ")
    }

    static func row(_ name: String, _ help: String, indent: Int = 2, column: Int = column) -> [String] {
        let pad = String(repeating: " ", count: column)
        var lines: [String] = []
        var current = String(repeating: " ", count: indent) + name
        if current.count + 2 > column {
            lines.append(current)
            current = pad
        } else {
            current += String(repeating: " ", count: column - current.count)
        }
        let wrapped = wrap(help, prefix: pad, first: current)
        return lines + wrapped
    }

    /// `text` in lines of at most `width` columns (a longer word stays whole), each starting
    /// with `prefix`; the first continues `first` when given.
    static func wrap(_ text: String, prefix: String, first: String? = nil) -> [String] {
        var lines: [String] = []
        var current = first ?? prefix
        var lineHasWords = false
        for word in text.split(separator: " ") {
            if lineHasWords && current.count + 1 + word.count > width {
                lines.append(current)
                current = prefix
                lineHasWords = false
            }
            current += (lineHasWords ? " " : "") + word
            lineHasWords = true
        }
        lines.append(current)
        return lines
    }
}
