import FoldcamCore
import Foundation
import Testing

@Suite struct JSONTests {
    @Test func roundTripKeepsOrderAndValues() throws {
        let text = #"{"b":1,"a":[true,false,null,-2.5,"x\"y\\z\n\u00e9"],"c":{}}"#
        let value = try JSONParser.parse(text)
        #expect(value["b"] == .int(1))
        #expect(value["a"] == .array([.bool(true), .bool(false), .null, .double(-2.5), .string("x\"y\\z\né")]))
        #expect(try JSONParser.parse(value.compactText) == value)
        #expect(value.compactText.hasPrefix(#"{"b":1,"a""#))
    }

    @Test func surrogatePairsDecode() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test(arguments: [
        "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\\x\"", "\"unterminated", "tru", "{\"a\":1,\"a\":2}",
        "\"\u{01}\"", "\"\\ud800\"", "1 2",
    ])
    func rejectsInvalidJSON(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        // In a run after an escape too (runs are validated whole, not a scalar at a time).
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0x61, 0x5C, 0x6E, 0x62, 0xC3, 0x28, 0x22]) }
    }

    @Test func stringsKeepEveryScalarAcrossRunsAndEscapes() throws {
        // A combining accent right after an escaped "e", a run, an escaped quote, a 4-byte run.
        let value = try JSONParser.parse(#""pr\u0065\u0301t \"x\" é😀\\""#)
        let scalars: [Unicode.Scalar] = ["p", "r", "e", "\u{0301}", "t", " ", "\"", "x", "\"", " ", "\u{E9}", "\u{1F600}", "\\"]
        guard case let .string(text) = value else {
            Issue.record("expected a string, got \(value)")
            return
        }
        #expect(Array(text.unicodeScalars) == scalars)
        #expect(try JSONParser.parse(#""""#) == .string(""))
        #expect(try JSONParser.parse(#""\n""#) == .string("\n"))
    }

    @Test func limitsNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    }

    @Test func errorsNameLineAndColumn() {
        do {
            _ = try JSONParser.parse("{\n  \"a\": x}")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2 && error.column == 8)
        }
    }
}

@Suite struct TrigTests {
    @Test func matchesTheCLibrary() {
        var x = -20.0
        while x < 20 {
            let (s, c) = Trig.sinCos(x)
            #expect(abs(s - Foundation.sin(x)) < 1e-14)
            #expect(abs(c - Foundation.cos(x)) < 1e-14)
            #expect(abs(Trig.atan(x) - Foundation.atan(x)) < 1e-14)
            #expect(abs(Trig.atan2(x, 1.5) - Foundation.atan2(x, 1.5)) < 1e-14)
            #expect(abs(Trig.atan2(1.5, x) - Foundation.atan2(1.5, x)) < 1e-14)
            #expect(abs(Trig.atan2(-1.5, x) - Foundation.atan2(-1.5, x)) < 1e-14)
            x += 0.0137
        }
        for d in stride(from: -1.0, through: 1.0, by: 0.001) {
            #expect(abs(Trig.acos(d) - Foundation.acos(d)) < 1e-7)
        }
    }
}
