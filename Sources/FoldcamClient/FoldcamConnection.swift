import FoldcamCore
import FoldcamPlatform
import Synchronization

/// One connection to foldcamd: requests matched to their replies by id, and the events of the
/// topics this connection subscribed to.
///
/// A dedicated thread reads the socket (blocking) and resumes the waiting requests; writes are
/// short and serialized. The connection does not reconnect: when the daemon goes away every
/// waiting request fails with `.disconnected` and `events` finishes. For a feed that survives
/// daemon restarts use `FoldcamClient.events(topics:)` or `FoldcamDirectionCoordinator`.
public final class FoldcamConnection: Sendable {
    /// The socket path this connection uses.
    public let path: String
    /// Events received on this connection, in order (one consumer). Finishes when the
    /// connection ends. Subscribe with `subscribe(_:)`; each newly subscribed topic's current
    /// value arrives right after the reply, then every change.
    public let events: AsyncStream<FoldcamEvent>
    private let core: ConnectionCore

    /// Connects to `path`, or to the default location (`FoldcamSocket.defaultPath`).
    public init(path: String? = nil) throws(FoldcamClientError) {
        let path = path ?? FoldcamSocket.defaultPath
        self.path = path
        let socket: UnixConnection
        do {
            socket = try UnixConnection.connect(path: path)
        } catch {
            if error.errno == .noEntry || error.errno == .connectionRefused {
                throw .daemonNotRunning(path: path)
            }
            if error.errno == .permissionDenied || error.errno == .notPermitted {
                throw .connectFailed(path: path, reason: "\(error.errno) (reading needs write permission on the socket; is your user in the daemon's group?)")
            }
            throw .connectFailed(path: path, reason: "\(error)")
        }
        // Before any request: is this foldcamd, or someone who created the socket first?
        do {
            if let reason = SocketLocation.distrust(try socket.peerCredentials(), path: path) {
                socket.close()
                throw FoldcamClientError.untrustedServer(path: path, reason: reason)
            }
        } catch let error as FoldcamClientError {
            throw error
        } catch {
            socket.close()
            throw .connectFailed(path: path, reason: "cannot read the server's credentials: \(error)")
        }
        let (events, continuation) = AsyncStream.makeStream(of: FoldcamEvent.self, bufferingPolicy: .unbounded)
        self.events = events
        core = ConnectionCore(socket: socket, events: continuation)
        let core = self.core
        guard ReaderThread.start({ core.readLoop() }) else {
            core.shutdown()
            socket.close()
            throw .connectFailed(path: path, reason: "cannot start a reader thread")
        }
    }

    deinit { core.shutdown() }

    /// Sends one request and waits for its reply. `params` must be a JSON object.
    /// Throws `.daemon(code:message:)` for error replies, `.disconnected` when the connection
    /// ends first, `.cancelled` when the task is cancelled.
    public func request(method: String, params: JSONValue = .object([])) async throws(FoldcamClientError) -> JSONValue {
        try await core.request(method: method, params: params).get()
    }

    /// Closes the connection: waiting requests fail with `.disconnected`, `events` finishes.
    public func close() { core.shutdown() }

    /// Why the connection ended, once it has (nil while it is open).
    public var closeReason: FoldcamClientError? { core.closeReason }

    /// The socket's descriptor number (tests check that it stays this connection's).
    var descriptorNumber: Int32 { core.descriptorNumber }
}

/// The state shared by the caller's tasks and the reader thread.
final class ConnectionCore: Sendable {
    typealias Reply = Result<JSONValue, FoldcamClientError>

    private struct State {
        var nextID = 1
        var pending: [Int: CheckedContinuation<Reply, Never>] = [:]
        var closed: FoldcamClientError?
        var shutdownRequested = false
    }

    /// Closed only when the core goes away (the caller's connection and the reader thread
    /// both let go): the descriptor number stays this connection's while anyone can use it.
    private let socket: UnixConnection
    private let eventContinuation: AsyncStream<FoldcamEvent>.Continuation
    private let state = Mutex(State())
    private let writeLock = Mutex(())

    init(socket: UnixConnection, events: AsyncStream<FoldcamEvent>.Continuation) {
        self.socket = socket
        eventContinuation = events
    }

    var closeReason: FoldcamClientError? { state.withLock { $0.closed } }
    var descriptorNumber: Int32 { socket.descriptor.rawValue }

    func shutdown() {
        let first = state.withLock { state -> Bool in
            defer { state.shutdownRequested = true }
            return !state.shutdownRequested
        }
        if first { socket.shutdown() }
    }

    func request(method: String, params: JSONValue) async -> Reply {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let line = JSONValue.object([("id", .int(id)), ("method", .string(method)), ("params", params)]).compactText + "\n"
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
                let closed = state.withLock { state -> FoldcamClientError? in
                    if let closed = state.closed { return closed }
                    state.pending[id] = continuation
                    return nil
                }
                if let closed {
                    continuation.resume(returning: .failure(Self.asDisconnect(closed)))
                    return
                }
                // Cancelled before the handler could see the continuation: fail it here.
                if Task.isCancelled { finish(id, .failure(.cancelled)) }
                do {
                    try writeLock.withLock { _ throws(SystemCallError) in try socket.sendAll(Array(line.utf8)) }
                } catch {
                    finish(id, .failure(.disconnected(reason: "\(error)")))
                }
            }
        } onCancel: {
            finish(id, .failure(.cancelled))
        }
    }

    /// Resumes request `id` once, if it is still waiting.
    private func finish(_ id: Int, _ reply: Reply) {
        state.withLock { $0.pending.removeValue(forKey: id) }?.resume(returning: reply)
    }

    private static func asDisconnect(_ error: FoldcamClientError) -> FoldcamClientError {
        if case .disconnected = error { return error }
        return .disconnected(reason: "\(error)")
    }

    // MARK: The reader thread

    func readLoop() {
        var splitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var reason: FoldcamClientError = .disconnected(reason: "the daemon closed the connection")
        var serverError: FoldcamClientError?
        reading: while true {
            let count: Int?
            do {
                count = try buffer.withUnsafeMutableBytes { raw throws(SystemCallError) in try socket.receive(into: raw) }
            } catch {
                reason = .disconnected(reason: "\(error)")
                break
            }
            guard let count else { continue }
            if count == 0 { break }
            var broken: FoldcamClientError?
            buffer.withUnsafeBytes { raw in
                splitter.append(UnsafeRawBufferPointer(rebasing: raw[..<count])) { line in
                    guard broken == nil else { return }
                    if let error = handle(line) {
                        if case .invalidReply = error { broken = error } else { serverError = error }
                    }
                }
            }
            if let broken {
                reason = broken
                break reading
            }
            if splitter.pendingCount > LineSplitter.maximumLineBytes {
                reason = .invalidReply("a line longer than \(LineSplitter.maximumLineBytes) bytes")
                break
            }
        }
        if state.withLock({ $0.shutdownRequested }) {
            reason = .disconnected(reason: "closed by the client")
        } else if let serverError {
            // A reply without an id that nobody waited for (e.g. tooManyClients) says why it ended.
            reason = serverError
        }
        let waiting = state.withLock { state -> [CheckedContinuation<Reply, Never>] in
            state.closed = reason
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        for continuation in waiting { continuation.resume(returning: .failure(Self.asDisconnect(reason))) }
        eventContinuation.finish()
        // Ends the connection (the daemon sees the client leave; a writer blocked in `request`
        // wakes) but keeps the descriptor: it is closed when this object goes away, never here.
        // Closed here, its number could be reused by another connection (or file) of the
        // process while a caller still held it, and the caller's later `close()` (shutdown) or
        // a request's write would then hit that other connection.
        socket.shutdown()
    }

    /// Handles one line: a reply, an event, or garbage (returned as `.invalidReply`). Returns a
    /// daemon error nobody was waiting for, so the end of the connection can name it.
    private func handle(_ line: ArraySlice<UInt8>) -> FoldcamClientError? {
        let message: JSONValue
        do {
            message = try JSONParser.parse(Array(line))
        } catch {
            return .invalidReply("invalid JSON (\(error))")
        }
        if let name = message["event"]?.stringValue {
            guard case let .int(seq)? = message["seq"] else { return .invalidReply("event \(name) without a seq") }
            eventContinuation.yield(FoldcamEvent(name: name, seq: seq, data: message["data"] ?? .null))
            return nil
        }
        let reply: Reply
        if let error = message["error"] {
            reply = .failure(.daemon(code: error["code"]?.stringValue ?? "unknown", message: error["message"]?.stringValue ?? error.compactText))
        } else if let result = message["result"] {
            reply = .success(result)
        } else {
            return .invalidReply("neither a reply nor an event: \(String(message.compactText.prefix(200)))")
        }
        switch message["id"] {
        case let .int(id)?:
            finish(id, reply)
            return nil
        default:
            // No id: the daemon could not tell which request this answers. Fail the oldest one.
            let oldest = state.withLock { state -> CheckedContinuation<Reply, Never>? in
                guard let id = state.pending.keys.min() else { return nil }
                return state.pending.removeValue(forKey: id)
            }
            guard let oldest else {
                if case let .failure(error) = reply { return error }
                return nil
            }
            oldest.resume(returning: reply)
            return nil
        }
    }
}
