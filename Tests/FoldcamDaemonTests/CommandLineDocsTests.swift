import FoldcamTestSupport
import Glibc
import Testing

/// The man pages and shell completions list exactly the options and exit codes that the
/// executables' `--help` (generated from their CommandLineSpec tables) declares, so a new option
/// cannot land undocumented and a removed one cannot linger in the docs.
@Suite("man pages and completions match the generated usage")
struct CommandLineDocsTests {
    struct Usage {
        /// Every option and flag-chosen mode, aliases included ("--json", "-o", "--help", "-h").
        var options: Set<String> = []
        var exitCodes: Set<String> = []
    }

    static func usage(of program: String) throws -> Usage {
        let directory = try TemporaryDirectory()
        let child = try ChildProcess(executable: try Executables.path(of: program), arguments: ["--help"],
                                     stdoutPath: directory.file("out"), stderrPath: directory.file("err"))
        try #require(child.exitCode(timeout: .seconds(20)) == 0, "\(program) --help: \(child.stderr)")
        var usage = Usage()
        var section = ""
        for line in child.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), line.hasSuffix(":") { section = String(line); continue }
            guard line.hasPrefix("  "), let first = line.dropFirst(2).first, first != " " else { continue }
            // The name column: "--socket PATH", "--help, -h", "0".
            let name = Self.nameColumn(line.dropFirst(2))
            if section == "exit codes:" {
                usage.exitCodes.insert(name)
            } else if first == "-" {
                for item in name.split(separator: ",") { usage.options.insert(String(item.split(separator: " ")[0])) }
            }
        }
        return usage
    }

    /// A row's text up to the first run of two spaces.
    static func nameColumn(_ row: Substring) -> String {
        var name = ""
        var previous: Character = "x"
        for character in row {
            if character == " " && previous == " " { break }
            name.append(character)
            previous = character
        }
        return name.hasSuffix(" ") ? String(name.dropLast()) : name
    }

    static func words(_ text: String, separators: String) -> [String] {
        text.split(whereSeparator: { separators.contains($0) }).map(String.init)
    }

    /// Words set in bold in an scd page that are options: `*--socket*`, `*-o*`.
    static func boldOptions(_ page: String) -> Set<String> {
        var parts: [String] = [""]
        var escaped = false
        for character in page {
            if escaped { escaped = false; continue }  // "\*" is a literal asterisk
            if character == "\\" { escaped = true; continue }
            if character == "*" { parts.append("") } else { parts[parts.count - 1].append(character) }
        }
        return Set(parts.enumerated().filter { $0.offset % 2 == 1 }.map(\.element).filter(isOption))
    }

    static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), let letter = word.drop(while: { $0 == "-" }).first, letter.isLetter else { return false }
        return word.count <= 2 + 30 && word.allSatisfy { $0.isLetter || $0 == "-" }
    }

    /// The `*N*` items of a page's EXIT STATUS section.
    static func exitStatuses(_ page: String) -> Set<String> {
        let lines = page.split(separator: "\n").drop { $0 != "# EXIT STATUS" }.dropFirst().prefix { !$0.hasPrefix("# ") }
        return Set(lines.filter { $0.hasPrefix("*") && $0.hasSuffix("*") }.map { String($0.dropFirst().dropLast()) })
    }

    /// Long options in shell code: words made of letters and dashes that start with "--".
    static func longOptions(_ code: String) -> Set<String> {
        Set(words(code, separators: " \t\n'\"()[]|=;:*{}$").filter { $0.hasPrefix("--") && isOption($0) })
    }

    @Test("man/foldcamd.8.scd and man/foldcamctl.1.scd: the options and exit codes of --help, no more, no fewer", arguments: [("foldcamd", "man/foldcamd.8.scd"), ("foldcamctl", "man/foldcamctl.1.scd")])
    func manPage(program: String, page: String) throws {
        let usage = try Self.usage(of: program)
        try #require(usage.options.count > 5, "could not read \(program) --help")
        let text = readTextFile(DocsTests.repository + "/" + page)
        let documented = Self.boldOptions(text)
        #expect(documented.subtracting(usage.options).isEmpty, "\(page) documents options \(program) does not declare: \(documented.subtracting(usage.options).sorted())")
        #expect(usage.options.subtracting(documented).isEmpty, "\(page) lacks options \(program) declares: \(usage.options.subtracting(documented).sorted())")
        #expect(Self.exitStatuses(text) == usage.exitCodes, "\(page) EXIT STATUS \(Self.exitStatuses(text).sorted()) vs --help \(usage.exitCodes.sorted())")
    }

    @Test("completions/ offer exactly foldcamctl's and foldcamd's options", arguments: ["foldcamctl", "foldcamd"])
    func completions(program: String) throws {
        let usage = try Self.usage(of: program)
        let long = usage.options.filter { $0.hasPrefix("--") }
        let short = usage.options.subtracting(long).subtracting(["-h"])
        for file in ["completions/\(program).bash", "completions/_\(program)"] {
            let code = readTextFile(DocsTests.repository + "/" + file)
            #expect(Self.longOptions(code) == long, "\(file): \(Self.longOptions(code).sorted()) vs --help \(long.sorted())")
            for option in short {
                #expect(Self.words(code, separators: " \t\n'\"()[]|").contains(option), "\(file) lacks \(option)")
            }
        }
        // fish names options as `-l socket` and `-s o`.
        let completeLines = readTextFile(DocsTests.repository + "/completions/\(program).fish").split(separator: "\n").filter { $0.hasPrefix("complete ") }
        let fish = Self.words(completeLines.joined(separator: "\n"), separators: " \t\n")
        let fishLong = Set(zip(fish, fish.dropFirst()).filter { $0.0 == "-l" }.map { "--" + $0.1 })
        let fishShort = Set(zip(fish, fish.dropFirst()).filter { $0.0 == "-s" }.map { "-" + $0.1 })
        #expect(fishLong == long, "completions/\(program).fish: \(fishLong.sorted()) vs --help \(long.sorted())")
        #expect(fishShort == short, "completions/\(program).fish: \(fishShort.sorted()) vs --help \(short.sorted())")
    }

    /// The long options written after `foldcamd` / `foldcamctl` in a line of text, per program:
    /// each command stops at a shell separator, a backtick or a comment.
    static func optionsMentioned(in line: Substring) -> [(program: String, option: String)] {
        var found: [(String, String)] = []
        for segment in line.split(whereSeparator: { "`|;&#".contains($0) }) {
            let words = segment.split(whereSeparator: { $0 == " " || $0 == "\t" })
            var program: String?
            for (index, word) in words.enumerated() {
                let name = word.split(separator: "/").last.map(String.init) ?? ""
                if ["foldcamd", "foldcamctl"].contains(name) {
                    // `swift build --product foldcamd --scratch-path ...` names a product, not a command.
                    program = index > 0 && words[index - 1] == "--product" ? nil : name
                } else if let program, word.hasPrefix("--"), isOption(String(word.split(separator: "=")[0])) {
                    found.append((program, String(word.split(separator: "=")[0])))
                }
            }
        }
        return found
    }

    @Test("every option a doc or the README writes after foldcamd or foldcamctl is one that program declares")
    func docsMentionOnlyDeclaredOptions() throws {
        let declared = ["foldcamd": try Self.usage(of: "foldcamd").options, "foldcamctl": try Self.usage(of: "foldcamctl").options]
        var docs = ["README.md"]
        if let directory = opendir(DocsTests.repository + "/docs") {
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix(".md") { docs.append("docs/" + name) }
            }
        }
        #expect(docs.count > 5, "docs/ not found: \(docs)")
        var checked = 0
        for doc in docs {
            for (number, line) in readTextFile(DocsTests.repository + "/" + doc).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for (program, option) in Self.optionsMentioned(in: line) {
                    checked += 1
                    #expect(declared[program]?.contains(option) == true, "\(doc):\(number + 1): \(program) does not declare \(option): \(line)")
                }
            }
        }
        #expect(checked > 50, "the docs were not read: \(checked) options found")
    }
}
