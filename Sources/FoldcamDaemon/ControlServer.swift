import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// A successful result: a value to encode, or one encoded already (a published topic's value,
/// encoded once per change however many clients ask for it).
enum Answer {
    case value(JSONValue)
    case encoded(EncodedJSON)
}

/// What the server asks of the daemon for each request.
protocol RequestHandling: AnyObject {
    /// Whether the daemon simulates its rig (the `simulate.*` methods exist only then).
    var simulates: Bool { get }
    /// Handles one request the server has already authorized; `session` is the client that
    /// sent it. Nil means the reply comes later, through `ControlServer.completeDeferred`
    /// (work done off the loop, e.g. snapshots).
    func handle(_ method: Method, _ request: WireProtocol.Request, from session: ClientSession) -> Result<Answer, WireProtocol.Failure>?
    /// The value of a topic last published (sent right after subscribing).
    func publishedValue(of topic: Topic) -> EncodedJSON
    /// The sequence number of the latest event.
    var currentSeq: Int { get }
}

/// The Unix socket server: accepts clients, reads JSON lines, decides who may call what
/// (`Authorizer`), writes replies and events, and enforces the limits (line size, client
/// count per user and in all, request deadlines, stuck readers). Runs on the event loop.
final class ControlServer {
    struct Limits {
        var maxClients = 256
        /// Connections one unprivileged uid may hold.
        var maxClientsPerUser = 16
        /// Slots only root, the daemon's user and the control group may take.
        var reservedClients = 16
        /// How long a client may take to send a whole request line (from connecting, or from
        /// the first byte of a line).
        var requestTimeout: Duration = .seconds(10)
        var stuckTimeout: Duration = .seconds(30)
    }

    private let loop: EventLoop
    private let listener: UnixListener
    private let log: Log
    var limits: Limits
    weak var handler: RequestHandling?
    var authorizer: Authorizer
    private var sessions: [Int32: ClientSession] = [:]
    /// Open connections of each unprivileged uid.
    private var unprivilegedConnections: [UInt32: Int] = [:]
    /// Refusals of new clients are logged within a budget: a connect flood is one line a minute.
    private var refusalLogBudget = LogBudget()
    private let deadlineTimer: Timer
    private var deadlineTimerArmed = false
    private var nextSessionID = 1
    private let stuckTimer: Timer
    private var stuckTimerArmed = false
    private let clock = ContinuousClock()

    init(loop: EventLoop, listener: UnixListener, limits: Limits, authorizer: Authorizer, log: Log) throws(SystemCallError) {
        self.loop = loop
        self.listener = listener
        self.limits = limits
        self.authorizer = authorizer
        self.log = log
        stuckTimer = try Timer()
        deadlineTimer = try Timer()
        try loop.register(listener.descriptor) { [unowned self] _ in self.acceptPending() }
        try loop.register(stuckTimer.descriptor) { [unowned self] _ in
            _ = self.stuckTimer.acknowledge()
            self.disconnectStuckClients()
        }
        try loop.register(deadlineTimer.descriptor) { [unowned self] _ in
            _ = self.deadlineTimer.acknowledge()
            self.closeLateClients()
        }
    }

    var clientCount: Int { sessions.count }

    /// Closes every client and the listening socket (removing its file).
    func shutdown() {
        for session in Array(sessions.values) { drop(session, reason: nil) }
        loop.unregister(listener.descriptor)
        listener.shutdown()
    }

    // MARK: Accepting

    private func acceptPending() {
        while true {
            let connection: UnixConnection?
            do {
                connection = try listener.accept()
            } catch {
                // EMFILE and friends: log and retry on the next readiness, never exit.
                log.error("accepting a client failed: \(error)")
                return
            }
            guard let connection else { return }
            let credentials = try? connection.peerCredentials()
            if let refusal = admissionRefusal(credentials) {
                let failure = WireProtocol.Failure(code: .tooManyClients, message: refusal)
                _ = WireProtocol.reply(failure).jsonLine.withUnsafeBytes { try? connection.send($0) }
                let who = credentials.map { "uid \($0.uid), pid \($0.pid)" } ?? "unknown peer"
                if let line = refusalLogBudget.line("refused a client (\(who)): \(refusal)", now: clock.now) { log.warning(line) }
                connection.close()
                continue
            }
            let session = ClientSession(id: nextSessionID, connection: connection, credentials: credentials)
            nextSessionID += 1
            do {
                try loop.register(connection.descriptor) { [unowned self, unowned session] readiness in
                    self.service(session, readiness)
                }
            } catch {
                log.error("cannot watch a new client: \(error)")
                connection.close()
                continue
            }
            sessions[connection.descriptor.rawValue] = session
            if let credentials, !authorizer.isPrivileged(credentials) {
                session.countsAgainstUser = true
                unprivilegedConnections[credentials.uid, default: 0] += 1
            }
            // A client that never sends a whole request must not hold its slot.
            setInputDeadline(session, clock.now + limits.requestTimeout)
            log.debug("client \(session.id) connected (pid \(credentials.map { String($0.pid) } ?? "?"), uid \(credentials.map { String($0.uid) } ?? "?"))")
        }
    }

    /// Why a new client may not have a slot, or nil. Privileged peers may take every slot;
    /// others share what is left after the reserved slots, at most `maxClientsPerUser` each,
    /// so no local user can lock root or the control group out.
    private func admissionRefusal(_ credentials: PeerCredentials?) -> String? {
        if sessions.count >= limits.maxClients {
            return "the daemon serves at most \(limits.maxClients) clients (maxClients); try again later"
        }
        guard !authorizer.isPrivileged(credentials) else { return nil }
        let shared = limits.maxClients - limits.reservedClients
        if sessions.count >= shared {
            return "all \(shared) unreserved client slots are in use (the other \(limits.reservedClients) are kept for \(authorizer.privilegedDescription): reservedClients); try again later"
        }
        guard let credentials else { return "the daemon cannot tell who you are (SO_PEERCRED failed)" }
        let held = unprivilegedConnections[credentials.uid] ?? 0
        if held >= limits.maxClientsPerUser {
            return "uid \(credentials.uid) already has \(held) connections; each user may hold \(limits.maxClientsPerUser) (maxClientsPerUser)"
        }
        return nil
    }

    // MARK: Reading

    private func service(_ session: ClientSession, _ readiness: EventLoop.Readiness) {
        if readiness.writable { flush(session) }
        guard sessions[session.connection.descriptor.rawValue] === session else { return }
        if readiness.readable || readiness.closed { readAvailable(session) }
    }

    /// One receive buffer for all clients (the loop runs one handler at a time), so a read
    /// does not allocate and clear 16 KiB.
    private var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)

    private func readAvailable(_ session: ClientSession) {
        while !session.closeAfterFlush {
            let count: Int?
            do {
                count = try readBuffer.withUnsafeMutableBytes { try session.connection.receive(into: $0) }
            } catch {
                drop(session, reason: "read failed: \(error)")
                return
            }
            guard let count else { return }  // drained
            if count == 0 {
                drop(session, reason: nil)  // client closed
                return
            }
            session.input.append(contentsOf: readBuffer[..<count])
            processLines(session)
        }
    }

    private func processLines(_ session: ClientSession) {
        var start = session.input.startIndex
        defer { updateInputDeadline(session) }
        while let newline = session.input[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = session.input[start..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            start = newline + 1
            session.lineCompleted = true
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { handleLine(line, session) }
            if session.closeAfterFlush { break }
        }
        session.input.removeSubrange(..<start)
        if session.input.count > WireProtocol.maximumLineBytes && !session.closeAfterFlush {
            // No newline within the limit: the stream cannot be resynchronised. Say why, then close.
            let failure = WireProtocol.Failure(code: .tooLarge, message: "request line longer than \(WireProtocol.maximumLineBytes) bytes; closing the connection")
            send(WireProtocol.reply(failure).jsonLine, to: session)
            session.input.removeAll()
            session.closeAfterFlush = true
            log.warning("client \(session.id): request line over \(WireProtocol.maximumLineBytes) bytes; disconnecting")
            flush(session)
        }
    }

    private func handleLine(_ line: ArraySlice<UInt8>, _ session: ClientSession) {
        switch WireProtocol.parseRequest(line) {
        case let .failure(failure):
            logBadRequest(session, "sent a bad request: \(failure.code.rawValue)")
            send(WireProtocol.reply(failure).jsonLine, to: session)
        case let .success(request):
            var newTopics: Set<Topic> = []
            switch dispatch(request, session, newTopics: &newTopics) {
            case let .success(.value(result))?: send(WireProtocol.reply(id: request.id, result: result).jsonLine, to: session)
            case let .success(.encoded(result))?: send(WireProtocol.replyLine(id: request.id, result: result), to: session)
            case let .failure(failure)?: send(WireProtocol.reply(failure).jsonLine, to: session)
            case nil: break  // answered later by completeDeferred
            }
            // A new subscriber gets each topic's current value at once, then every change.
            if !newTopics.isEmpty { sendCurrentValues(of: newTopics, to: session) }
        }
    }

    /// Finds the method, asks the authorizer, then routes: the one place that answers "who may
    /// do this?" for every request.
    private func dispatch(_ request: WireProtocol.Request, _ session: ClientSession, newTopics: inout Set<Topic>) -> Result<Answer, WireProtocol.Failure>? {
        guard let handler else {
            return .failure(WireProtocol.Failure(id: request.id, code: .unavailable, message: "the daemon is shutting down"))
        }
        let method: Method
        switch Method.named(request.method, id: request.id, simulate: handler.simulates) {
        case let .success(found): method = found
        case let .failure(failure):
            logBadRequest(session, "called \(ClientText.quoted(request.method)): \(failure.code.rawValue)")
            return .failure(failure)
        }
        guard authorizer.permits(method.access, session.credentials) else {
            let who = session.credentials.map { "uid \($0.uid), pid \($0.pid)" } ?? "unknown peer"
            if let line = session.logBudget.line("denied \(method.rawValue) to client \(session.id) (\(who)): \(authorizer.refusal(for: method))", now: clock.now) {
                log.warning(line)
            }
            return .failure(WireProtocol.Failure(id: request.id, code: .forbidden, message: authorizer.refusal(for: method)))
        }
        switch method {
        case .subscribe, .unsubscribe:
            guard let topics = Self.topics(request) else {
                return .failure(WireProtocol.Failure(id: request.id, code: .invalidParams, message: "params.topics: expected an array of topic names (\(Topic.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
            if method == .subscribe {
                newTopics = topics.subtracting(session.subscriptions)
                session.subscriptions.formUnion(topics)
            } else {
                session.subscriptions.subtract(topics)
            }
            return .success(.value(.object([
                ("topics", .array(session.subscriptions.sorted().map { .string($0.rawValue) })),
                ("seq", .int(handler.currentSeq)),
            ])))
        default:
            return handler.handle(method, request, from: session)
        }
    }

    /// Bad requests are logged at debug priority, within the client's log budget.
    private func logBadRequest(_ session: ClientSession, _ text: String) {
        if let line = session.logBudget.line("client \(session.id) \(text)", now: clock.now) { log.debug(line) }
    }

    /// `{"topics": ["directions", ...]}`; nil when malformed or naming an unknown topic.
    static func topics(_ request: WireProtocol.Request) -> Set<Topic>? {
        guard case let .array(names)? = request.params["topics"], !names.isEmpty else { return nil }
        var topics: Set<Topic> = []
        for name in names {
            guard let text = name.stringValue, let topic = Topic(rawValue: text) else { return nil }
            topics.insert(topic)
        }
        return topics
    }

    private func sendCurrentValues(of topics: Set<Topic>, to session: ClientSession) {
        guard let handler, sessions[session.connection.descriptor.rawValue] === session else { return }
        for topic in topics.sorted() {
            let line = WireProtocol.eventLine(topic, seq: handler.currentSeq, data: handler.publishedValue(of: topic))
            session.enqueueEvent(topic, seq: handler.currentSeq, line: line, now: clock.now)
        }
        flush(session)
    }

    /// Sends the reply to a request whose handler answered later. A client that left in the
    /// meantime is simply gone: the reply is dropped.
    func completeDeferred(sessionID: Int, requestID: JSONValue, result: Result<JSONValue, WireProtocol.Failure>) {
        guard let session = sessions.values.first(where: { $0.id == sessionID }) else { return }
        switch result {
        case let .success(value): send(WireProtocol.reply(id: requestID, result: value).jsonLine, to: session)
        case let .failure(failure): send(WireProtocol.reply(failure).jsonLine, to: session)
        }
    }

    // MARK: Writing

    private func send(_ line: [UInt8], to session: ClientSession) {
        session.enqueueReply(line, now: clock.now)
        if session.pendingBytes > ClientSession.hardLimit {
            drop(session, reason: "more than \(ClientSession.hardLimit) bytes of replies unread")
            return
        }
        flush(session)
    }

    /// Sends one event to every subscriber of its topic. The line is made once and shared.
    func publish(_ topic: Topic, seq: Int, data: EncodedJSON) {
        let line = WireProtocol.eventLine(topic, seq: seq, data: data)
        let now = clock.now
        for session in Array(sessions.values) where session.subscriptions.contains(topic) {
            session.enqueueEvent(topic, seq: seq, line: line, now: now)
            flush(session)
        }
    }

    private func flush(_ session: ClientSession) {
        switch session.flush(now: clock.now) {
        case .drained:
            if session.closeAfterFlush {
                drop(session, reason: nil)
                return
            }
            setWritableInterest(session, false)
        case .pending:
            setWritableInterest(session, true)
            armStuckTimer()
        case let .failed(error):
            drop(session, reason: error.errno == .brokenPipe || error.errno == .connectionReset ? nil : "write failed: \(error)")
        }
    }

    private func setWritableInterest(_ session: ClientSession, _ writable: Bool) {
        guard session.watchingWritable != writable else { return }
        session.watchingWritable = writable
        loop.modify(session.connection.descriptor, interest: writable ? [.readable, .writable] : .readable)
    }

    // MARK: Request deadlines

    /// After reading: a client with half a line (or nothing yet) must finish it in time. The
    /// deadline runs from connecting or from the first byte of a line, not from the latest
    /// byte, so a byte a second does not keep a slot.
    private func updateInputDeadline(_ session: ClientSession) {
        guard sessions[session.connection.descriptor.rawValue] === session, !session.closeAfterFlush else { return }
        if session.input.isEmpty {
            session.inputDeadline = nil
        } else if session.inputDeadline == nil || session.lineCompleted {
            setInputDeadline(session, clock.now + limits.requestTimeout)
        }
        session.lineCompleted = false
    }

    private func setInputDeadline(_ session: ClientSession, _ deadline: ContinuousClock.Instant) {
        session.inputDeadline = deadline
        guard !deadlineTimerArmed else { return }
        // Runs only while some client owes the rest of a request: an idle daemon never wakes.
        deadlineTimerArmed = true
        let period = min(limits.requestTimeout / 4, .seconds(1))
        try? deadlineTimer.schedule(after: period, repeating: period)
    }

    private func closeLateClients() {
        let now = clock.now
        var anyPending = false
        for session in Array(sessions.values) {
            guard let deadline = session.inputDeadline, !session.closeAfterFlush else { continue }
            guard now >= deadline else {
                anyPending = true
                continue
            }
            session.inputDeadline = nil
            let what = session.hasSpoken ? "a request line was left unfinished" : "no request arrived"
            let failure = WireProtocol.Failure(code: .timeout, message: "\(what) for \(limits.requestTimeout) (requestTimeoutSeconds); closing the connection")
            session.input.removeAll()
            session.closeAfterFlush = true
            log.info("client \(session.id): \(what) for \(limits.requestTimeout); disconnecting")
            send(WireProtocol.reply(failure).jsonLine, to: session)
        }
        if !anyPending {
            deadlineTimer.cancel()
            deadlineTimerArmed = false
        }
    }

    // MARK: Stuck clients

    /// The timer runs only while some client has unsent output, so an idle daemon never wakes.
    private func armStuckTimer() {
        guard !stuckTimerArmed else { return }
        stuckTimerArmed = true
        let period = min(limits.stuckTimeout, .seconds(5))
        try? stuckTimer.schedule(after: period, repeating: period)
    }

    private func disconnectStuckClients() {
        let now = clock.now
        var anyPending = false
        for session in Array(sessions.values) {
            guard let since = session.waitingSince else { continue }
            if now - since > limits.stuckTimeout {
                drop(session, reason: "stopped reading for more than \(limits.stuckTimeout) with \(session.pendingBytes) bytes unsent")
            } else {
                anyPending = true
            }
        }
        if !anyPending {
            stuckTimer.cancel()
            stuckTimerArmed = false
        }
    }

    private func drop(_ session: ClientSession, reason: String?) {
        let fd = session.connection.descriptor.rawValue
        guard sessions[fd] === session else { return }
        sessions[fd] = nil
        if session.countsAgainstUser, let credentials = session.credentials, let held = unprivilegedConnections[credentials.uid] {
            unprivilegedConnections[credentials.uid] = held > 1 ? held - 1 : nil
        }
        loop.unregister(session.connection.descriptor)
        session.connection.close()
        if let reason {
            let pid = session.credentials.map { String($0.pid) } ?? "?"
            log.warning("client \(session.id) (pid \(pid)) disconnected: \(reason)")
        } else {
            log.debug("client \(session.id) disconnected")
        }
    }
}
