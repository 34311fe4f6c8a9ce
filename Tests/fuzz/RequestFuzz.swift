// The request parser (`WireProtocol.parseRequest`), one of the targets of Tests/fuzz/run.
//
// Invariants checked on every input (a violation is a fatalError that libFuzzer reports as a crash):
// - parsing never traps, whatever the bytes;
// - a line `RequestScanner` reads is the very request the full parser makes of it;
// - a parsed request has a string or integer id, a non-empty method and object params, and
//   survives a round trip: encoded as compact JSON and parsed again it is the same request
//   (or, when the encoding outgrows the line limit, is refused as tooLarge);
// - every reply the server would send for the input (the error reply, or a result reply
//   echoing the params) is one line of valid JSON that parses back to the same value, so the
//   JSON-lines framing can never break.

func fuzzRequest(_ bytes: [UInt8]) {
    // The server strips the newline and a trailing carriage return before parsing.
    checkLine(bytes[...])
}

private func checkLine(_ line: ArraySlice<UInt8>) {
    // The scanner's fast path decides nothing: what it accepts, the full parser parses alike.
    if let scanned = RequestScanner.scan(line) {
        let tree = WireProtocol.parseRequestTree(line)
        check("\(tree)" == "\(Result<WireProtocol.Request, WireProtocol.Failure>.success(scanned))", "the scanner read \(scanned), the parser \(tree)")
    }
    switch WireProtocol.parseRequest(line) {
    case let .success(request):
        switch request.id {
        case .int, .string: break
        default: failed("accepted a request whose id is \(request.id.kindDescription)")
        }
        check(!request.method.isEmpty, "accepted an empty method")
        guard case .object = request.params else { failed("accepted params that are \(request.params.kindDescription)") }

        // Round trip: the request re-encoded parses to the same request.
        let encoded = JSONValue.object([("id", request.id), ("method", .string(request.method)), ("params", request.params)]).compactText
        switch WireProtocol.parseRequest(Array(encoded.utf8)[...]) {
        case let .success(again):
            check(again == request, "round trip changed the request: \(encoded)")
        case let .failure(failure):
            // Compact JSON can be longer than what was sent (1e5 is 100000): near the line limit
            // the re-encoding may be too large, and then only too large.
            let tooLong = encoded.utf8.count > WireProtocol.maximumLineBytes
            check(tooLong && failure.code == .tooLarge, "a re-encoded request was refused (\(failure.code.rawValue): \(failure.message)): \(encoded)")
        }
        checkReply(WireProtocol.reply(id: request.id, result: request.params))
        checkReply(WireProtocol.reply(WireProtocol.Failure(id: request.id, code: .unknownMethod, message: "unknown method \"\(request.method)\"")))
    case let .failure(failure):
        check(!failure.message.isEmpty, "an error without a message")
        switch failure.id {
        case .null, .int, .string: break
        default: failed("an error reply whose id is \(failure.id.kindDescription)")
        }
        if failure.code == .tooLarge { check(line.count > WireProtocol.maximumLineBytes, "tooLarge for \(line.count) bytes") }
        checkReply(WireProtocol.reply(failure))
    }
}

/// A reply must be a single line of JSON that parses back to itself.
func checkReply(_ reply: JSONValue) {
    let text = reply.compactText
    let bytes = Array(text.utf8)
    check(!bytes.contains(UInt8(ascii: "\n")) && !bytes.contains(UInt8(ascii: "\r")), "a reply spans lines: \(text)")
    let parsed: JSONValue
    do {
        parsed = try JSONParser.parse(bytes)
    } catch {
        failed("a reply is not valid JSON (\(error)): \(text)")
    }
    check(parsed == reply, "a reply changed in a round trip: \(text)")
    check(parsed.compactText == text, "re-encoding a reply is not stable: \(text)")
}

// fatalError prints its message in optimised builds too (precondition's is dropped at -O).
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { failed(message()) }
}

func failed(_ message: String) -> Never {
    fatalError("invariant broken: " + message)
}
