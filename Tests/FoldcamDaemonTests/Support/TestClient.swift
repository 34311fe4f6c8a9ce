import FoldcamCore
import FoldcamTestSupport
import Glibc

/// Milliseconds left until `deadline`, for poll().
func millisecondsLeft(until deadline: ContinuousClock.Instant) -> Int32 {
    let left = deadline - ContinuousClock.now
    if left <= .zero { return 0 }
    let (seconds, attoseconds) = left.components
    return Int32(min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
}

/// How a read attempt ended.
enum ReadOutcome: Equatable {
    case data, wouldBlock, closed
}

/// A client of the daemon's socket written against the bare socket API, so the tests check
/// the wire protocol itself (not a client library). Reads are non-blocking with poll()
/// timeouts; every wait is bounded.
final class TestClient {
    let fd: Int32
    private var input: [UInt8] = []
    private(set) var isClosed = false
    /// Events that arrived while waiting for a reply, in arrival order.
    var pendingEvents: [JSONValue] = []
    private var nextID = 1

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket(): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw HarnessError("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            let error = errno
            // Through close(): a throwing class initializer still runs deinit once every stored
            // property is set, and a second close() of the number would close whatever another
            // test opened since (a connection of another test's client, seen answering wrongly).
            close()
            throw HarnessError("connect(\(path)): \(String(cString: strerror(error)))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close() }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }

    // MARK: Writing

    /// Writes all bytes (waiting for room). Returns false if the peer is gone.
    @discardableResult
    func sendBytes(_ bytes: [UInt8], timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                offset += written
                continue
            }
            if written < 0 && (errno == EAGAIN || errno == EINTR) {
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&entry, 1, millisecondsLeft(until: deadline)) == 0 && ContinuousClock.now >= deadline { return false }
                continue
            }
            return false
        }
        return true
    }

    @discardableResult
    func sendLine(_ text: String) -> Bool { sendBytes(Array((text + "\n").utf8)) }

    /// Sends a request and returns its id.
    @discardableResult
    func sendRequest(_ method: String, _ params: JSONValue? = nil) -> Int {
        let id = nextID
        nextID += 1
        var members: [(String, JSONValue)] = [("id", .int(id)), ("method", .string(method))]
        if let params { members.append(("params", params)) }
        sendLine(JSONValue.object(members).compactText)
        return id
    }

    // MARK: Reading

    /// Reads what is available now, without waiting.
    @discardableResult
    func readAvailable() -> ReadOutcome {
        guard !isClosed else { return .closed }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var gotData = false
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                input.append(contentsOf: chunk[..<count])
                gotData = true
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EAGAIN { return gotData ? .data : .wouldBlock }
            // 0 is the end of the stream; ECONNRESET is a close with our bytes left unread.
            close()
            return gotData ? .data : .closed
        }
    }

    /// Waits until readable (or the deadline passes); false on timeout.
    private func waitReadable(until deadline: ContinuousClock.Instant) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, millisecondsLeft(until: deadline)) > 0
    }

    /// The next complete line already buffered, without its newline.
    private func takeBufferedLine() -> [UInt8]? {
        guard let newline = input.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = Array(input[..<newline])
        input.removeSubrange(...newline)
        return line
    }

    /// The next line, or nil when the connection closed or the timeout passed first.
    func readLine(timeout: Duration = .seconds(10)) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let line = takeBufferedLine() { return line }
            if isClosed { return nil }
            if readAvailable() == .wouldBlock {
                if !waitReadable(until: deadline) && ContinuousClock.now >= deadline { return nil }
            }
        }
    }

    /// Every complete line available now, without waiting.
    func availableLines() -> [[UInt8]] {
        readAvailable()
        var lines: [[UInt8]] = []
        while let line = takeBufferedLine() { lines.append(line) }
        return lines
    }

    func readMessage(timeout: Duration = .seconds(10)) throws -> JSONValue {
        guard let line = readLine(timeout: timeout) else {
            throw HarnessError(isClosed ? "the daemon closed the connection" : "no message within \(timeout)")
        }
        do {
            return try JSONParser.parse(line)
        } catch {
            throw HarnessError("the daemon sent invalid JSON (\(error)): \(String(decoding: line, as: UTF8.self))")
        }
    }

    /// The reply with this id; events before it are kept in `pendingEvents`.
    func reply(to id: Int, timeout: Duration = .seconds(10)) throws -> JSONValue {
        let deadline = ContinuousClock.now + timeout
        while true {
            let message = try readMessage(timeout: max(.zero, deadline - .now))
            if message["event"] != nil {
                pendingEvents.append(message)
            } else if message["id"] == .int(id) {
                return message
            } else {
                throw HarnessError("unexpected message while waiting for reply \(id): \(message.compactText)")
            }
        }
    }

    /// Sends a request and returns the whole reply (`result` or `error`).
    func call(_ method: String, _ params: JSONValue? = nil, timeout: Duration = .seconds(10)) throws -> JSONValue {
        try reply(to: sendRequest(method, params), timeout: timeout)
    }

    /// Sends a request that must succeed and returns its `result`.
    func result(_ method: String, _ params: JSONValue? = nil) throws -> JSONValue {
        let reply = try call(method, params)
        guard let result = reply["result"] else { throw HarnessError("\(method) failed: \(reply.compactText)") }
        return result
    }

    /// The next event (pending ones first).
    func nextEvent(timeout: Duration = .seconds(10)) throws -> JSONValue {
        if !pendingEvents.isEmpty { return pendingEvents.removeFirst() }
        let message = try readMessage(timeout: timeout)
        guard message["event"] != nil else { throw HarnessError("expected an event, got \(message.compactText)") }
        return message
    }

    /// Reads and discards until the daemon closes the connection; false on timeout.
    func waitUntilClosed(timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !isClosed {
            input.removeAll(keepingCapacity: true)
            if readAvailable() == .wouldBlock {
                if !waitReadable(until: deadline) && ContinuousClock.now >= deadline { return false }
            }
        }
        return true
    }
}

extension JSONValue {
    /// Follows object members: `value[path: "error", "code"]`.
    subscript(path keys: String...) -> JSONValue? {
        var current: JSONValue? = self
        for key in keys { current = current?[key] }
        return current
    }

    /// A JSON object literal from pairs, for params.
    static func params(_ members: (String, JSONValue)...) -> JSONValue { .object(members) }
}
