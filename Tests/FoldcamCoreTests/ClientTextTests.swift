@testable import FoldcamCore
import Testing

/// Client text that reaches a log line or an error reply: escaped, bounded (docs/security.md).
@Suite("client text in logs and replies")
struct ClientTextTests {
    @Test("control characters, quotes and backslashes are escaped; nothing can end the line")
    func escapes() {
        #expect(ClientText.quoted("pinView") == #""pinView""#)
        #expect(ClientText.quoted("a\n<0>b") == #""a\n<0>b""#)
        #expect(ClientText.quoted("tab\there\r") == #""tab\there\r""#)
        #expect(ClientText.quoted("say \"hi\" \\") == #""say \"hi\" \\""#)
        #expect(ClientText.quoted("\u{1B}[31mred\u{7F}") == #""\u{1b}[31mred\u{7f}""#)
        #expect(ClientText.quoted("line\u{2028}sep") == #""line\u{2028}sep""#)
        #expect(ClientText.quoted("café ☕") == "\"café ☕\"", "printable Unicode stays readable")
        // Bidi controls and zero-width format characters could make a line read otherwise.
        #expect(ClientText.quoted("a\u{202E}b\u{200B}c\u{FEFF}d\u{2066}e\u{00AD}f") == #""a\u{202e}b\u{200b}c\u{feff}d\u{2066}e\u{ad}f""#)
        #expect(ClientText.escaped("say \"hi\"\n\u{202E}", limit: 64) == #"say "hi"\n\u{202e}"#, "unquoted: the message's own quotes stay")
        #expect(ClientText.escaped("abcdef", limit: 3) == "abc… (6 bytes)")
        #expect(!ClientText.quoted(String(repeating: "\n", count: 100)).contains("\n"))
    }

    @Test("long text is cut to the limit and says how long it was")
    func bounded() {
        let long = String(repeating: "A", count: 65_536)
        let quoted = ClientText.quoted(long)
        #expect(quoted == "\"" + String(repeating: "A", count: 64) + "\"… (65536 bytes)")
        #expect(ClientText.quoted(String(repeating: "B", count: 64)) == "\"" + String(repeating: "B", count: 64) + "\"")
        #expect(ClientText.quoted("abcdef", limit: 3) == "\"abc\"… (6 bytes)")
    }

    @Test("the nearest valid name is suggested for a typo, nothing for a stranger")
    func nearestName() {
        let methods = ["hello", "state", "directions", "pinView", "unpinView", "snapshot"]
        #expect(NearestName.suggestion(for: "pinVeiw", among: methods) == "pinView")
        #expect(NearestName.suggestion(for: "directon", among: methods) == "directions")
        #expect(NearestName.suggestion(for: "STATE", among: methods) == "state")
        #expect(NearestName.suggestion(for: "xyzzy", among: methods) == nil)
        #expect(NearestName.suggestion(for: String(repeating: "q", count: 60_000), among: methods) == nil, "bounded work for huge names")
        #expect(NearestName.hint(for: "displya", among: ["display"]) == "; did you mean \"display\"?")
        #expect(NearestName.hint(for: "zzz", among: ["display"]) == "")
    }
}

@Suite("JSON byte order mark")
struct ByteOrderMarkTests {
    @Test("a UTF-8 BOM at the start is named, with what to do")
    func bomIsNamed() {
        do {
            _ = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"id": "duo"}"#.utf8))
            Issue.record("a BOM was accepted")
        } catch {
            #expect("\(error)".contains("byte order mark") && "\(error)".contains("without a BOM"), "\(error)")
        }
    }
}
