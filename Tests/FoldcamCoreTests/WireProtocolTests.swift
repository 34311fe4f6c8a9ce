import FoldcamCore
import Testing

@Suite struct WireProtocolSpliceTests {
    static let values: [JSONValue] = [
        .null, .int(-3), .string("x\"\n\u{1}é"), .array([]), .object([]),
        .object([("forward", .array([.string("outer-front"), .string("back")])), ("viewed", .bool(true)), ("theta", .double(12.5))]),
    ]
    static let ids: [JSONValue] = [.int(1), .int(0), .int(-7), .int(10), .int(Int.max), .int(Int.min), .int(-9_007_199_254_740_991), .string("req \"7\""), .null]

    /// What the refusal of a bad id says: the reason that applies, not a blanket "not a number".
    @Test func idRefusalsSayWhatIsWrong() {
        func message(_ line: String) -> String? {
            guard case let .failure(failure) = WireProtocol.parseRequest(Array(line.utf8)[...]) else { return nil }
            return failure.message
        }
        #expect(message(#"{"method": "hello"}"#)?.contains("it is missing") == true)
        #expect(message(#"{"id": 1.5, "method": "hello"}"#)?.contains("\"1.5\" is not an integer") == true)
        #expect(message(#"{"id": 1e20, "method": "hello"}"#)?.contains("is beyond ±10^15") == true)
        #expect(message(#"{"id": null, "method": "hello"}"#)?.contains("found null") == true)
        #expect(message(#"{"id": 2.0, "method": "hello"}"#) == nil, "an integral float is an integer id")
        // The ±10^15 limit is the same however the number is written.
        for inside in ["1000000000000000", "-1000000000000000", "1e15", "-1e15", "1.0e15"] {
            #expect(message(#"{"id": \#(inside), "method": "hello"}"#) == nil, "\(inside) is within ±10^15")
        }
        for beyond in ["1000000000000001", "-1000000000000001", "1.000000000000001e15", "2e15", "9223372036854775807"] {
            #expect(message(#"{"id": \#(beyond), "method": "hello"}"#)?.contains("is beyond ±10^15") == true, "\(beyond) is beyond ±10^15")
        }
    }

    @Test func replyLineIsTheEncodedReply() {
        for id in Self.ids {
            for value in Self.values {
                #expect(WireProtocol.replyLine(id: id, result: EncodedJSON(value)) == WireProtocol.reply(id: id, result: value).jsonLine)
            }
        }
    }

    @Test func eventLineIsTheEncodedEvent() {
        for topic in Topic.allCases {
            for seq in [0, 1, 123_456_789] {
                for value in Self.values {
                    #expect(WireProtocol.eventLine(topic, seq: seq, data: EncodedJSON(value)) == WireProtocol.event(topic, seq: seq, data: value).jsonLine)
                }
            }
        }
    }

    @Test func topicsAreOrderedAndIndexedAsListed() {
        #expect(Topic.allCases.map(\.index) == Array(Topic.allCases.indices))
        #expect(Topic.allCases.sorted() == Topic.allCases)
        var table = TopicTable<Int>()
        for topic in Topic.allCases { table[topic] = topic.index * 10 }
        #expect(Topic.allCases.map { table[$0] } == [0, 10, 20, 30, 40, 50])
        table[.posture] = nil
        #expect(table[.posture] == nil && table[.devices] == 20)
    }

    @Test func encodedValuesCompareByTheirBytes() {
        #expect(EncodedJSON(.int(1)) == EncodedJSON(.int(1)))
        #expect(EncodedJSON(.int(1)) != EncodedJSON(.string("1")))
        #expect(EncodedJSON(.object([("a", .int(1))])).bytes == Array(#"{"a":1}"#.utf8))
    }
}
