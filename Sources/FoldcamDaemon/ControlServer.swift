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
    /// (work done off the loop, e.g. snapshots). `route` is where `method` goes (`Method.route`).
    func handle(_ route: Method.DaemonRequest, _ method: Method, _ request: WireProtocol.Request, from session: ClientSession) -> Result<Answer, WireProtocol.Failure>?
    /// The value of a topic last published (sent right after subscribing).
    func publishedValue(of topic: Topic) -> EncodedJSON
    /// The sequence number of the latest event.
    var currentSeq: Int { get }
    /// A client left: work queued for it is dropped.
    func clientLeft(sessionID: Int)
    /// At shutdown: the deferred requests not yet answered (they get `stopped`).
    func abandonPendingRequests() -> [(sessionID: Int, requestID: JSONValue)]
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

    let loop: EventLoop
    let listener: UnixListener
    let log: Log
    var limits: Limits
    weak var handler: RequestHandling?
    var authorizer: Authorizer
    /// Counters for operators (docs/metrics.md), shared with the daemon.
    let metrics: DaemonMetrics
    var sessions: [Int32: ClientSession] = [:]
    /// Open connections of each unprivileged uid.
    var unprivilegedConnections: [UInt32: Int] = [:]
    /// Refusals of new clients and accept failures are logged within a budget: a connect
    /// flood costs one line a minute.
    var refusalLogBudget = LogBudget()
    var acceptFailureLogBudget = LogBudget(burst: 1, window: .seconds(60))
    /// Set while accepting is paused because the process ran out of file descriptors.
    let acceptPauseTimer: Timer
    let deadlineTimer: Timer
    var deadlineTimerArmed = false
    var nextSessionID = 1
    let stuckTimer: Timer
    var stuckTimerArmed = false
    let clock = ContinuousClock()
    /// Clients with requests left over from their turn (`requestsPerTurn`), by descriptor.
    let turns: Mailbox<Int32>

    init(loop: EventLoop, listener: UnixListener, limits: Limits, authorizer: Authorizer, metrics: DaemonMetrics, log: Log) throws(SystemCallError) {
        self.metrics = metrics
        self.loop = loop
        self.listener = listener
        self.limits = limits
        self.authorizer = authorizer
        self.log = log
        stuckTimer = try Timer()
        deadlineTimer = try Timer()
        acceptPauseTimer = try Timer()
        turns = try Mailbox()
        try loop.register(turns.descriptor) { [unowned self] _ in self.takeTurns() }
        try loop.register(listener.descriptor) { [unowned self] _ in self.acceptPending() }
        try loop.register(acceptPauseTimer.descriptor) { [unowned self] _ in
            _ = self.acceptPauseTimer.acknowledge()
            self.resumeAccepting()
        }
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

    /// Closes every client and the listening socket (removing its file). Requests still
    /// being worked on are answered `stopped` first (`RequestHandling.pendingRequests`).
    func shutdown() {
        loop.unregister(listener.descriptor)
        for pending in handler?.abandonPendingRequests() ?? [] {
            let failure = WireProtocol.Failure(id: pending.requestID, code: .stopped, message: "the daemon is stopping; the request was not completed")
            completeDeferred(sessionID: pending.sessionID, requestID: pending.requestID, result: .failure(failure))
        }
        for session in Array(sessions.values) {
            // One last non-blocking write: whatever the socket takes now.
            _ = session.flush(now: clock.now)
            drop(session, reason: nil)
        }
        listener.shutdown()
    }

    // MARK: Reading

    func service(_ session: ClientSession, _ readiness: EventLoop.Readiness) {
        if readiness.writable { flush(session) }
        guard sessions[session.connection.descriptor.rawValue] === session else { return }
        if readiness.readable || (readiness.closed && !session.readPaused) { readAvailable(session) }
    }

    /// One receive buffer for all clients (the loop runs one handler at a time), so a read
    /// does not allocate and clear 16 KiB.
    var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)

    /// Requests one client may have handled before the others get a turn: a client that
    /// pipelines thousands of requests shares the loop instead of holding it.
    static let requestsPerTurn = 32

    func readAvailable(_ session: ClientSession) {
        var budget = Self.requestsPerTurn
        while !session.closeAfterFlush && !session.readPaused && sessions[session.connection.descriptor.rawValue] === session {
            if session.input.contains(UInt8(ascii: "\n")) {
                processLines(session, budget: &budget)
                if budget == 0 { return scheduleTurn(session) }
                if session.input.contains(UInt8(ascii: "\n")) { continue }
                // A reply those lines caused may have failed and dropped the session (its
                // descriptor closed, perhaps reused): read nothing more for it.
                guard !session.connection.descriptor.isClosed else { return }
            }
            let count: Int?
            do {
                count = try readBuffer.withUnsafeMutableBytes { try session.connection.receive(into: $0) }
            } catch {
                // ECONNRESET: the client closed with our replies unread on its side, an ordinary
                // way to leave (a script that read what it wanted, Ctrl-C), not a fault.
                drop(session, reason: (error as? SystemCallError)?.errno == .connectionReset ? nil : "read failed: \(error)")
                return
            }
            guard let count else { return }  // drained
            if count == 0 {
                drop(session, reason: nil)  // client closed
                return
            }
            session.input.append(contentsOf: readBuffer[..<count])
            processLines(session, budget: &budget)
            if budget == 0 { return scheduleTurn(session) }
        }
    }

    /// Comes back to a client with requests left once the loop has served everyone else.
    func scheduleTurn(_ session: ClientSession) {
        guard !session.turnScheduled else { return }
        session.turnScheduled = true
        turns.post(session.connection.descriptor.rawValue)
    }

    func takeTurns() {
        for fd in turns.drain() {
            guard let session = sessions[fd], session.turnScheduled else { continue }
            session.turnScheduled = false
            readAvailable(session)
        }
    }

    /// Handles the whole lines read so far. Stops while the client's unread replies are over
    /// `ClientSession.replyBackpressure`: a client that does not read cannot make the daemon
    /// work or allocate for it; its requests wait in the socket until it catches up.
    func processLines(_ session: ClientSession, budget: inout Int) {
        var start = session.input.startIndex
        defer { updateInputDeadline(session) }
        // A reply that could not be sent drops the session: its remaining lines are nobody's.
        while budget > 0 && !session.isOverReplyBound, !session.connection.descriptor.isClosed, let newline = session.input[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = session.input[start..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            start = newline + 1
            budget -= 1
            session.lineCompleted = true
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { handleLine(line, session) }
            if session.closeAfterFlush { break }
        }
        session.input.removeSubrange(..<start)
        if session.isOverReplyBound && !session.closeAfterFlush && sessions[session.connection.descriptor.rawValue] === session {
            session.readPaused = true
            updateInterest(session)
            return
        }
        if session.input.count > WireProtocol.maximumLineBytes && !session.closeAfterFlush {
            // No newline within the limit: the stream cannot be resynchronised. Say why, then close.
            let failure = WireProtocol.Failure(code: .tooLarge, message: "request line longer than \(WireProtocol.maximumLineBytes) bytes; closing the connection")
            send(WireProtocol.reply(failure).jsonLine, to: session)
            session.input.removeAll()
            session.closeAfterFlush = true
            metrics.disconnected(.lineTooLong)
            log.warning("client \(session.id): request line over \(WireProtocol.maximumLineBytes) bytes; disconnecting")
            flush(session)
        }
    }

    // MARK: Writing

    func send(_ line: [UInt8], to session: ClientSession) {
        session.enqueueReply(line, now: clock.now)
        if session.pendingBytes > ClientSession.hardLimit {
            metrics.disconnected(.repliesUnread)
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

    func flush(_ session: ClientSession) {
        // Dropped already (its descriptor is closed, perhaps reused): nothing goes to it.
        guard !session.connection.descriptor.isClosed else { return }
        switch session.flush(now: clock.now) {
        case .drained:
            if session.closeAfterFlush {
                drop(session, reason: nil)
                return
            }
            session.watchingWritable = false
        case .pending:
            session.watchingWritable = true
            armStuckTimer()
        case let .failed(error):
            drop(session, reason: error.errno == .brokenPipe || error.errno == .connectionReset ? nil : "write failed: \(error)")
            return
        }
        if session.readPaused && !session.isOverReplyBound {
            // Caught up: the requests that waited get their turn, then reading resumes.
            session.readPaused = false
            updateInterest(session)
            scheduleTurn(session)
        } else {
            updateInterest(session)
        }
    }

    /// Watches for reading unless paused by backpressure, and for writing while output waits.
    func updateInterest(_ session: ClientSession) {
        var interest: EventLoop.Interest = session.readPaused ? [] : .readable
        if session.watchingWritable { interest.insert(.writable) }
        guard interest != session.interest else { return }
        session.interest = interest
        loop.modify(session.connection.descriptor, interest: interest)
    }

    // MARK: Leaving

    func drop(_ session: ClientSession, reason: String?) {
        let fd = session.connection.descriptor.rawValue
        guard sessions[fd] === session else { return }
        sessions[fd] = nil
        if session.countsAgainstUser, let credentials = session.credentials, let held = unprivilegedConnections[credentials.uid] {
            unprivilegedConnections[credentials.uid] = held > 1 ? held - 1 : nil
        }
        loop.unregister(session.connection.descriptor)
        session.connection.close()
        handler?.clientLeft(sessionID: session.id)
        if let reason {
            let pid = session.credentials.map { String($0.pid) } ?? "?"
            log.warning("client \(session.id) (pid \(pid)) disconnected: \(reason)")
        } else {
            log.debug("client \(session.id) disconnected")
        }
    }
}
