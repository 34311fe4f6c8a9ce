@testable import FoldcamCore
import Testing

/// `RequestScanner` against the full parser: every line it accepts must parse to the very same
/// request through the `JSONValue` tree (the same cases too: `.int(1)` is not `.double(1)`), and
/// `parseRequest` must answer every line exactly as the tree alone would.
@Suite struct RequestScannerTests {
    /// The lines the daemon's tests and clients send (TestClient writes compact JSON; people and
    /// scripts write spaces), each method with the params it takes, and lines just outside the
    /// scanner's shape or broken in the ways the protocol tests break them.
    static let lines: [String] = [
        #"{"id":1,"method":"directions"}"#,
        #"{"id":1,"method":"hello"}"#, #"{"id":2,"method":"state","params":{}}"#,
        #"{"id":3,"method":"directions","params":{"display":"outer"}}"#,
        #"{"id":4,"method":"directions","params":{"output":"eDP-1"}}"#,
        #"{"id":5,"method":"subscribe","params":{"topics":["posture"]}}"#,
        #"{"id":6,"method":"unsubscribe","params":{"topics":["directions","posture"]}}"#,
        #"{"id":7,"method":"simulate.hinge","params":{"hinge":"main","angle":90}}"#,
        #"{"id":8,"method":"simulate.hinge","params":{"hinge":"main","angle":92.5}}"#,
        #"{"id":9,"method":"simulate.switch","params":{"switch":"lid","state":"closed"}}"#,
        #"{"id":10,"method":"simulate.gravity","params":{"vector":[1,0,0]}}"#,
        #"{"id":11,"method":"simulate.busy","params":{"camera":"back","busy":true}}"#,
        #"{"id":12,"method":"simulate.sweep","params":{"running":false}}"#,
        #"{"id":13,"method":"pinView","params":{"display":"inner","persist":true}}"#,
        #"{"id":14,"method":"unpinView","params":{"persist":null}}"#,
        #"{"id":15,"method":"setScreenRotation","params":{"display":"inner","rotation":270}}"#,
        #"{"id":16,"method":"snapshot","params":{"camera":"inner-front","at":123456789012}}"#,
        #"{"id":17,"method":"metrics"}"#, #"{"id":18,"method":"devices"}"#, #"{"id":19,"method":"frobnicate"}"#,
        #"{"id": 1, "method": "hello"}"#, #"  {"id" : 17 , "method" : "directions" }  "#, "{\"id\":\t1,\r\"method\":\"hello\"}",
        #"{"method":"hello","id":"a-7","params":{"display":"outer"}}"#, #"{"params":{},"method":"hello","id":0}"#,
        #"{"id":-0,"method":"hello"}"#, #"{"id":-5,"method":"hello"}"#, #"{"id":999999999999999,"method":"hello"}"#,
        #"{"id":1000000000000000,"method":"hello"}"#, #"{"id":-1000000000000000,"method":"hello"}"#,
        #"{"id":1000000000000001,"method":"hello"}"#, #"{"id":9223372036854775807,"method":"hello"}"#,
        #"{"id":2.0,"method":"hello"}"#, #"{"id":1.5,"method":"hello"}"#, #"{"id":1e15,"method":"hello"}"#, #"{"id":1E2,"method":"hello"}"#,
        #"{"id":01,"method":"hello"}"#, #"{"id":-,"method":"hello"}"#, #"{"id":+1,"method":"hello"}"#,
        #"{"id":null,"method":"hello"}"#, #"{"id":true,"method":"hello"}"#, #"{"id":[1],"method":"hello"}"#, #"{"method":"hello"}"#,
        #"{"id":"","method":"hello"}"#, #"{"id":"req \"7\"","method":"hello"}"#, #"{"id":"\u0041","method":"hello"}"#,
        #"{"id":"é","method":"hello"}"#, #"{"id":1,"method":""}"#, #"{"id":1,"method":12}"#, #"{"id":1}"#,
        #"{"id":1,"method":"ünïcödé"}"#, #"{"id":1,"method":"hel\nlo"}"#, #"{"id":1,"method":"a\/b"}"#,
        #"{"id":1,"method":"hello","params":[1]}"#, #"{"id":1,"method":"hello","params":null}"#, #"{"id":1,"method":"hello","params":"x"}"#,
        #"{"id":1,"method":"hello","unknown":1}"#, #"{"id":1,"id":2,"method":"hello"}"#, #"{"id":1,"method":"a","method":"b"}"#,
        #"{"id":1,"method":"hello","params":{},"params":{}}"#, #"{"id":1,"method":"x","params":{"a":1,"a":2}}"#,
        #"{"id":1,"method":"x","params":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8}}"#,
        #"{"id":1,"method":"x","params":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}}"#,
        #"{"id":1,"method":"x","params":{"big":123456789012345678,"bigger":1234567890123456789}}"#,
        #"{"id":1,"method":"x","params":{"n":-0,"m":-12,"z":0,"t":true,"f":false,"u":null}}"#,
        #"{"id":1,"method":"x","params":{"x":{"y":1}}}"#, #"{"id":1,"method":"x","params":{"s":"\ud83d\ude00"}}"#,
        #"{"id":1,"method":"x","params":{"tru":tru}}"#, #"{"id":1,"method":"x","params":{"t":truex}}"#, #"{"id":1,"method":"x","params":{"n":nul}}"#,
        #"{"id":1,"method":"hello",}"#, #"{"id":1,,"method":"hello"}"#, #"{"id":1 "method":"hello"}"#, #"{"id" 1,"method":"hello"}"#,
        #"{"id":1,"method":"hello"} x"#, #"{"id":1,"method":"hello"}}"#, #"{"id":1,"method":"hello""#, #"{"id":1,"method":"hel"#,
        #"{"id":1,"method":"hello"}{"id":2,"method":"hello"}"#, "\u{FEFF}{\"id\":1,\"method\":\"hello\"}",
        "{}", "[]", "[1, 2, 3]", "", " ", "null", "\"id\"", "{", "}", "{\"id\":1,\"method\":\"a\u{1}b\"}",
    ]

    static func describe(_ result: Result<WireProtocol.Request, WireProtocol.Failure>) -> String { "\(result)" }

    /// The differential check, for one line: what `parseRequest` returns is what the tree gives,
    /// and a scanned request is the tree's request. True when the scanner took the line.
    @discardableResult
    static func check(_ line: ArraySlice<UInt8>) -> Bool {
        let tree = describe(WireProtocol.parseRequestTree(line))
        #expect(describe(WireProtocol.parseRequest(line)) == tree, "\(String(decoding: line, as: UTF8.self))")
        guard let scanned = RequestScanner.scan(line) else { return false }
        #expect(describe(.success(scanned)) == tree, "scanned differently: \(String(decoding: line, as: UTF8.self))")
        return true
    }

    @Test func everyLineParsesAsTheTreeParsesIt() {
        for line in Self.lines { Self.check(Array(line.utf8)[...]) }
    }

    /// The fast path must stay a fast path: the lines clients send every second go through it.
    @Test func theCommonLinesAreScanned() throws {
        let common = [
            #"{"id":1,"method":"directions"}"#, #"{"id":2,"method":"state","params":{}}"#,
            #"{"id":3,"method":"directions","params":{"display":"outer"}}"#, #"{"id": "x", "method": "hello"}"#,
            #"{"id":7,"method":"simulate.hinge","params":{"hinge":"main","angle":90}}"#,
            #"{"id":13,"method":"pinView","params":{"display":"inner","persist":true}}"#,
        ]
        for line in common {
            #expect(RequestScanner.scan(Array(line.utf8)[...]) != nil, "not scanned: \(line)")
        }
        let request = try #require(RequestScanner.scan(Array(#"{"method":"x","id":"a-7","params":{"b":true,"n":-12,"s":"o k"}}"#.utf8)[...]))
        #expect(request.id == .string("a-7"))
        #expect(request.method == "x")
        #expect("\(request.params)" == "\(JSONValue.object([("b", .bool(true)), ("n", .int(-12)), ("s", .string("o k"))]))")
    }

    @Test func overlongLinesAreTheFullParsers() {
        let padding = String(repeating: " ", count: WireProtocol.maximumLineBytes)
        let line = Array((#"{"id":1,"method":"hello"}"# + padding).utf8)[...]
        #expect(RequestScanner.scan(line) == nil)
        guard case let .failure(failure) = WireProtocol.parseRequest(line) else { return #expect(Bool(false), "an over-long line was accepted") }
        #expect(failure.code == .tooLarge)
        let longID = String(repeating: "i", count: WireProtocol.maximumIDBytes)
        #expect(Self.check(Array(#"{"id":"\#(longID)","method":"hello"}"#.utf8)[...]))
        #expect(!Self.check(Array(#"{"id":"\#(longID)i","method":"hello"}"#.utf8)[...]))
    }

    /// Seeded mutations of the lines above (bytes replaced by JSON's structural bytes, digits,
    /// escapes and non-ASCII, inserted, deleted, runs repeated or cut): each checked both ways.
    @Test func mutatedLinesParseAsTheTreeParsesThem() {
        let alphabet = Array(#"{}[]":,.-+eE0159 \tnulltruefalse"#.utf8) + [0x5C, 0x0D, 0x0A, 0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]
        var generator = SeededGenerator(seed: 29)
        var scanned = 0
        let rounds = 20_000
        for _ in 0..<rounds {
            var line = Array(Self.lines.randomElement(using: &generator)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0...line.count, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0 where at < line.count: line[at] = alphabet.randomElement(using: &generator)!
                case 1: line.insert(alphabet.randomElement(using: &generator)!, at: at)
                case 2 where at < line.count: line.remove(at: at)
                case 3: line.insert(contentsOf: line[at...].prefix(Int.random(in: 1...8, using: &generator)), at: at)
                default: line.removeSubrange(at...)
                }
            }
            if Self.check(line[...]) { scanned += 1 }
        }
        // Some mutations keep the shape (about 3%: a digit for a digit, a letter in a string):
        // the comparison must have exercised the scanner's successes, not only its refusals.
        #expect(scanned > rounds / 50, "only \(scanned) of \(rounds) mutated lines were scanned")
    }
}
