/// The socket protocol's message shapes (docs/protocol.md is the reference; keep them in step).
/// JSON lines: requests `{"id": 1, "method": "...", "params": {...}}`, replies `{"id": 1,
/// "result": ...}` or `{"id": 1, "error": {"code": "...", "message": "..."}}`, events
/// `{"event": "...", "seq": N, "data": {...}}`.
public enum WireProtocol {
    public static let version = 1
    /// Longest request line accepted, in bytes (without the newline).
    public static let maximumLineBytes = 64 * 1024
    /// Longest string `id`, in bytes: every reply echoes the id, so it is bounded like any
    /// other client text the daemon sends back.
    public static let maximumIDBytes = 256
    /// Integer ids are within ±10^15, exact as a double (JavaScript's only number) and the same
    /// whether written 1000000000000000 or 1e15.
    public static let maximumIntegerID: UInt = 1_000_000_000_000_000

    public struct Request: Sendable, Equatable {
        public var id: JSONValue
        public var method: String
        public var params: JSONValue
    }

    public enum ErrorCode: String, Sendable, CaseIterable {
        case parseError, invalidRequest, unknownMethod, invalidParams, forbidden, unavailable
        case tooLarge, tooManyClients, timeout, busy, stopped, internalError
    }

    public struct Failure: Error, Sendable, Equatable {
        public var id: JSONValue
        public var code: ErrorCode
        public var message: String

        public init(id: JSONValue = .null, code: ErrorCode, message: String) {
            self.id = id
            self.code = code
            self.message = message
        }
    }

    /// Parses one request line (without its newline). Never throws past this point: every
    /// malformed input becomes a `Failure` the server sends back. The common lines are read by
    /// `RequestScanner`, everything else (every error among it) by `parseRequestTree`.
    public static func parseRequest(_ line: ArraySlice<UInt8>) -> Result<Request, Failure> {
        guard let request = RequestScanner.scan(line) else { return parseRequestTree(line) }
        // Debug builds (the test suites' daemons) parse every scanned request both ways.
        assert("\(parseRequestTree(line))" == "\(Result<Request, Failure>.success(request))", "RequestScanner and JSONParser disagree on \(String(decoding: line, as: UTF8.self))")
        return .success(request)
    }

    /// `parseRequest` through a `JSONValue` tree of the whole line.
    static func parseRequestTree(_ line: ArraySlice<UInt8>) -> Result<Request, Failure> {
        if line.count > maximumLineBytes {
            return .failure(Failure(code: .tooLarge, message: "request is \(line.count) bytes; the limit is \(maximumLineBytes)"))
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(line))
        } catch {
            return .failure(Failure(code: .parseError, message: "invalid JSON: \(error)"))
        }
        guard case let .object(members) = value else {
            return .failure(Failure(code: .invalidRequest, message: "a request is a JSON object, found \(value.kindDescription)"))
        }
        var id = value["id"] ?? .null
        switch id {
        // One limit however the number is written: 1000000000000000 and 1e15 are both in,
        // 1000000000000001 and 1.000000000000001e15 both out.
        case let .int(number) where number.magnitude <= maximumIntegerID: break
        case let .double(number) where number == number.rounded() && abs(number) <= Double(maximumIntegerID):
            // 1.0 is the integer 1 to most JSON encoders (JavaScript has no other): answer as 1.
            id = .int(Int(number))
        case let .string(text):
            if text.utf8.count > maximumIDBytes {
                return .failure(Failure(code: .invalidRequest, message: "\"id\" is \(text.utf8.count) bytes long; the limit is \(maximumIDBytes)"))
            }
        default:
            let found: String
            if value["id"] == nil {
                found = "it is missing"
            } else if case let .int(number) = id {
                found = "\(ClientText.quoted("\(number)")) is beyond ±10^15"
            } else if let number = id.numberValue {
                found = number == number.rounded() ? "\(ClientText.quoted("\(number)")) is beyond ±10^15" : "\(ClientText.quoted("\(number)")) is not an integer"
            } else {
                found = "found \(id.kindDescription)"
            }
            return .failure(Failure(code: .invalidRequest, message: "\"id\" must be an integer or a string, so the reply can be matched (\(found))"))
        }
        for (key, _) in members where !["id", "method", "params"].contains(key) {
            return .failure(Failure(id: id, code: .invalidRequest, message: "unknown member \(ClientText.quoted(key))\(NearestName.hint(for: key, among: ["id", "method", "params"])) (expected id, method, params)"))
        }
        guard let method = value["method"]?.stringValue, !method.isEmpty else {
            return .failure(Failure(id: id, code: .invalidRequest, message: "\"method\" must be a non-empty string"))
        }
        let params = value["params"] ?? .object([])
        guard case .object = params else {
            return .failure(Failure(id: id, code: .invalidParams, message: "\"params\" must be an object, found \(params.kindDescription)"))
        }
        return .success(Request(id: id, method: method, params: params))
    }

    public static func reply(id: JSONValue, result: JSONValue) -> JSONValue {
        .object([("id", id), ("result", result)])
    }

    public static func reply(_ failure: Failure) -> JSONValue {
        .object([("id", failure.id), ("error", .object([("code", .string(failure.code.rawValue)), ("message", .string(failure.message))]))])
    }

    public static func event(_ topic: Topic, seq: Int, data: JSONValue) -> JSONValue {
        .object([("event", .string(topic.rawValue)), ("seq", .int(seq)), ("data", data)])
    }

    /// `reply(id:result:).jsonLine`, with the result's encoding spliced in rather than redone.
    public static func replyLine(id: JSONValue, result: EncodedJSON) -> [UInt8] {
        var line = start(reserving: result)
        appendReply(id: id, result: result, to: &line)
        return line
    }

    /// Appends `replyLine(id:result:)` to `output` (a client's pending output: no line of its own).
    public static func appendReply(id: JSONValue, result: EncodedJSON, to output: inout [UInt8]) {
        output.append(contentsOf: replyOpening)
        // Ids are integers nearly always: their digits go in without a String made of them.
        if case let .int(number) = id { appendDecimal(number, to: &output) } else { id.write(compactTo: &output) }
        output.append(contentsOf: replyResultLabel)
        finish(&output, result)
    }

    private static let replyOpening = Array(#"{"id":"#.utf8)
    private static let replyResultLabel = Array(#","result":"#.utf8)

    /// Room for `writeReplyHead`: the opening, a 20-character integer and the result label.
    public static let replyHeadCapacity = 48
    /// What follows a reply's result: `}` and the newline.
    public static let replyTail: [UInt8] = [UInt8(ascii: "}"), UInt8(ascii: "\n")]

    /// Writes `{"id":<id>,"result":` into `buffer` (at least `replyHeadCapacity` bytes) and
    /// returns its length: with the result's bytes and `replyTail` after it, the very bytes of
    /// `replyLine(id: .int(id), result:)`, without a line of its own.
    public static func writeReplyHead(id: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(buffer.count >= replyHeadCapacity)
        var count = 0
        for byte in replyOpening {
            buffer[count] = byte
            count += 1
        }
        if id < 0 {
            buffer[count] = UInt8(ascii: "-")
            count += 1
        }
        let digitsStart = count
        var rest = id.magnitude
        repeat {
            buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
            count += 1
            rest /= 10
        } while rest > 0
        var digits = UnsafeMutableBufferPointer(rebasing: buffer[digitsStart..<count])
        digits.reverse()
        for byte in replyResultLabel {
            buffer[count] = byte
            count += 1
        }
        return count
    }

    /// `String(number)`, written as bytes.
    static func appendDecimal(_ number: Int, to output: inout [UInt8]) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        let start = output.count
        var rest = number.magnitude
        repeat {
            output.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        output[start...].reverse()
    }

    /// `event(_:seq:data:).jsonLine`, with the data's encoding spliced in rather than redone.
    public static func eventLine(_ topic: Topic, seq: Int, data: EncodedJSON) -> [UInt8] {
        var line = start(reserving: data)
        line.append(contentsOf: #"{"event":"#.utf8)
        JSONValue.string(topic.rawValue).write(compactTo: &line)
        line.append(contentsOf: #","seq":"#.utf8)
        line.append(contentsOf: String(seq).utf8)
        line.append(contentsOf: #","data":"#.utf8)
        finish(&line, data)
        return line
    }

    // A line is built in one buffer sized up front, its fixed parts written as they are: this
    // runs for every query and every event (it made and encoded an object each time, 8% of a
    // directions request under perf). The members' order is `reply`'s and `event`'s.
    private static func start(reserving encoded: EncodedJSON) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(96 + encoded.bytes.count)
        return line
    }

    private static func finish(_ line: inout [UInt8], _ encoded: EncodedJSON) {
        line.append(contentsOf: encoded.bytes)
        line.append(UInt8(ascii: "}"))
        line.append(UInt8(ascii: "\n"))
    }
}

/// What clients can subscribe to. Each event carries the topic's full current value.
public enum Topic: String, Sendable, CaseIterable, Comparable {
    case directions, posture, devices, virtualCamera, readiness, screens

    /// The topic's place in `allCases`: its order, and what its hash is made of (a raw-value
    /// enum otherwise hashes its name, byte by byte, at every look-up).
    public var index: Int {
        switch self {
        case .directions: return 0
        case .posture: return 1
        case .devices: return 2
        case .virtualCamera: return 3
        case .readiness: return 4
        case .screens: return 5
        }
    }

    public static func < (a: Topic, b: Topic) -> Bool { a.index < b.index }

    public func hash(into hasher: inout Hasher) { hasher.combine(index) }
}

/// A value per topic, in an array by the topic's `index`: the daemon looks up a published value
/// for every query of it.
public struct TopicTable<Value> {
    private var values = [Value?](repeating: nil, count: Topic.allCases.count)

    public init() {}

    public subscript(topic: Topic) -> Value? {
        get { values[topic.index] }
        set { values[topic.index] = newValue }
    }
}

extension TopicTable: Sendable where Value: Sendable {}
