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
    /// malformed input becomes a `Failure` the server sends back.
    public static func parseRequest(_ line: ArraySlice<UInt8>) -> Result<Request, Failure> {
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
        line.append(contentsOf: #"{"id":"#.utf8)
        id.write(compactTo: &line)
        line.append(contentsOf: #","result":"#.utf8)
        finish(&line, result)
        return line
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

    public static func < (a: Topic, b: Topic) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
