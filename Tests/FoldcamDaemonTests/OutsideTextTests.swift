import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// docs/security.md, "It never echoes or logs outside text raw": text from a rig file, a
/// configuration file, a state file or a client reaches the journal and error replies escaped
/// (control, bidi and zero-width characters, newlines) and cut, one test per source.
@Suite("outside text in logs and replies")
struct OutsideTextTests {
    /// What a hostile text tries: a forged record, a terminal escape, a right-to-left override,
    /// a zero-width space and a byte order mark.
    static let hostile = "evil\n<0>forged record\u{1B}[31m\u{202E}txt.exe\u{200B}\u{FEFF}"

    /// The lines of `text` are free of what `hostile` carried, and short.
    static func expectClean(_ text: String, _ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.contains("forged record") && !$0.contains("evil") }, "\(source): a newline started a record of its own:\n\(text.prefix(2000))", sourceLocation: sourceLocation)
        for forbidden: Unicode.Scalar in ["\u{1B}", "\u{202E}", "\u{200B}", "\u{FEFF}"] {
            #expect(!text.unicodeScalars.contains(forbidden), "\(source): U+\(String(forbidden.value, radix: 16, uppercase: true)) passed raw", sourceLocation: sourceLocation)
        }
        #expect(lines.allSatisfy { $0.utf8.count < 4096 }, "\(source): a line of \(lines.map(\.utf8.count).max() ?? 0) bytes", sourceLocation: sourceLocation)
    }

    static func jsonString(_ text: String) -> String { JSONValue.string(text).compactText }

    @Test("a rig file's ids and keys (a forged record, escapes, 1 MB) are escaped and cut in --check-config's errors")
    func rigText() throws {
        let directory = try TemporaryDirectory()
        let hugeKey = String(repeating: "K", count: 1_000_000)
        try directory.write("rig.json", #"{"id": \#(Self.jsonString(Self.hostile)), \#(Self.jsonString(Self.hostile)): 1, "\#(hugeKey)": 2}"#)
        let check = try CheckConfigTests.check(["--rig", directory.file("rig.json")], in: directory)
        #expect(check.code == 2, "\(check.stderr.prefix(2000))")
        #expect(check.stderr.contains("\\u{202e}") && check.stderr.contains("\\n<0>forged"), "\(check.stderr.prefix(2000))")
        Self.expectClean(check.stderr, "rig")
    }

    @Test("a configuration file's keys and values are escaped and cut in --check-config's errors")
    func configText() throws {
        let directory = try TemporaryDirectory()
        try directory.write("foldcam.json", #"{"rig": "duo", "logLevel": \#(Self.jsonString(Self.hostile)), \#(Self.jsonString(Self.hostile)): true}"#)
        let check = try CheckConfigTests.check(["--config", directory.file("foldcam.json")], in: directory)
        #expect(check.code == 2, "\(check.stderr)")
        #expect(check.stderr.contains("\\u{202e}"), "\(check.stderr)")
        Self.expectClean(check.stderr, "config")
        try directory.write("other.json", #"{"rig": \#(Self.jsonString(Self.hostile))}"#)
        let rig = try CheckConfigTests.check(["--config", directory.file("other.json")], in: directory)
        #expect(rig.code == 2, "\(rig.stderr)")
        Self.expectClean(rig.stderr, "config's rig")
    }

    @Test("a state file's display names are escaped in the daemon's log, whether the file is refused or its pin dropped")
    func stateText() throws {
        for contents in [
            #"{"version": 1, "screenRotations": {\#(Self.jsonString(Self.hostile)): 45}}"#,
            #"{"version": 1, "pin": {"display": \#(Self.jsonString(Self.hostile)), "uid": 0, "pid": 1, "command": \#(Self.jsonString(Self.hostile))}, "screenRotations": {\#(Self.jsonString(Self.hostile)): 90}}"#,
        ] {
            let directory = try TemporaryDirectory()
            let state = directory.file("state")
            #expect(mkdir(state, 0o755) == 0)
            try directory.write("state/state.json", contents)
            let daemon = try RunningDaemon(config: #"{"rig": "duo", "stateDirectory": "\#(state)"}"#, directory: directory)
            #expect(daemon.stderr.contains("\\u{202e}"), "\(daemon.stderr)")
            Self.expectClean(daemon.stderr, "state file")
        }
    }

    @Test("a client's method name and member names are escaped in the reply and the log, bidi and zero-width characters included")
    func clientText() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "logLevel": "debug"}"#)
        let client = try daemon.connect()
        let reply = try client.call(Self.hostile)
        #expect(reply[path: "error", "code"] == .string("unknownMethod"))
        let message = reply[path: "error", "message"]?.stringValue ?? ""
        #expect(message.contains("\\u{202e}txt.exe\\u{200b}\\u{feff}"), "\(message)")
        Self.expectClean(message, "reply")
        #expect(try client.result("hello")["rig"] == .string("duo"))
        #expect(daemon.waitForLog("\\u{202e}"), "\(daemon.stderr)")
        Self.expectClean(daemon.stderr, "daemon log")
    }
}
