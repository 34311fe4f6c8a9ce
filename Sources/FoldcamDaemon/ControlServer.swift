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
    /// The display shown on `params.output` (a DRM connector name), if the request names one;
    /// an output the rig does not have is refused with the nearest valid name.
    func displayShowing(_ params: Params) throws(WireProtocol.Failure) -> Int?
    /// The id of a display, for replies.
    func displayID(_ index: Int) -> String
    /// The value of a topic last published (sent right after subscribing).
    func publishedValue(of topic: Topic) -> EncodedJSON
    /// The sequence number of the latest event.
    var currentSeq: Int { get }
    /// A client left: work queued for it is dropped.
    func clientLeft(sessionID: Int)
    /// Whether any connected client may take snapshots (`frames`) changed: past frames are
    /// kept for snapshots only while one is.
    func snapshotClients(present: Bool)
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
    /// Held strongly (the daemon holds the server weakly, so there is no cycle): a weakly
    /// referenced object gets a side table, and every retain and release of it then takes the
    /// runtime's slow path, several times per request.
    var handler: RequestHandling?
    var authorizer: Authorizer {
        // A reload may change the control group: who may see pin owners changes with it.
        didSet {
            for session in sessions.values {
                session.seesPinOwners = authorizer.permits(.control, session.credentials)
                session.mayTakeFrames = authorizer.permits(.frames, session.credentials)
            }
            noteSnapshotClients()
        }
    }
    /// Whether the handler was last told that a client who may take snapshots is connected.
    private var snapshotClientsPresent = false
    /// Counters for operators (docs/metrics.md), shared with the daemon.
    let metrics: DaemonMetrics
    var sessions: [Int32: ClientSession] = [:]
    /// Open connections of each unprivileged uid.
    var unprivilegedConnections: [UInt32: Int] = [:]
    /// Refusals of new clients and accept failures are logged within a budget: a connect
    /// flood costs one line a minute.
    var refusalLogBudget = LogBudget()
    /// Everything else a client causes in the log counts against its user's budget, shared by
    /// all of that user's connections and kept when they reconnect.
    var userLogBudgets = UserLogBudgets()
    var acceptFailureLogBudget = LogBudget(burst: 1, window: .seconds(60))
    /// Set while accepting is paused because the process ran out of file descriptors.
    let acceptPauseTimer: Timer
    let deadlineTimer: Timer
    var deadlineTimerArmed = false
    var nextSessionID = 1
    let stuckTimer: Timer
    var stuckTimerArmed = false
    let clock = MonotonicClock()
    /// Clients waiting for a turn, by user, and the next pass: run by the loop after the
    /// handlers of its current batch (no wake-up of its own, so a request costs the same
    /// system calls as in a plain echo server).
    var turnQueue = TurnQueue()
    var pass: EventLoop.Deferred!
    /// The connections of the pass being taken (kept, so a pass allocates nothing).
    var passConnections: [Int32] = []
    var methodLookup = MethodLookup()

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
        pass = loop.deferred { [unowned self] in self.takeTurns() }
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
        // Requests already sent get one last pass (a turn per user, bounded as every pass), so
        // a request that came with the signal is answered, with `stopped` if unfinished.
        for session in Array(sessions.values) { scheduleTurn(session) }
        takeTurns()
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

    /// Readiness only queues the client for a turn (`TurnQueue`): reading and handling happen
    /// in passes, one turn per user per pass, so no connection is served twice in a pass and no
    /// user's connections are served more than once.
    func service(_ session: ClientSession, _ readiness: EventLoop.Readiness) {
        if readiness.writable { flush(session) }
        guard session.isConnected else { return }
        if readiness.closed && session.inputEnded {
            // The peer closed its reading side too: what it is owed can no longer reach it.
            return drop(session, reason: nil)
        }
        if readiness.readable || (readiness.closed && !session.readPaused) { scheduleTurn(session) }
    }

    /// One receive buffer for all clients (the loop runs one handler at a time), so a read
    /// does not allocate and clear 16 KiB. Raw memory, not an array: a read costs no
    /// uniqueness or exclusivity check on it.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)

    deinit { readBuffer.deallocate() }

    /// What one turn may cost: a user whose connections pipeline thousands of requests, or
    /// stream 64 KiB lines, shares the loop instead of holding it. A turn ends after whichever
    /// comes first, checked before each line after the first (the clock too) and the counts
    /// before each read, so a turn always makes progress and costs at most these plus one line
    /// (64 KiB) of parsing and one read.
    static let requestsPerTurn = 32
    static let bytesPerTurn = 64 * 1024
    static let timePerTurn: Duration = .milliseconds(2)

    struct TurnBudget {
        var lines = ControlServer.requestsPerTurn
        var bytes = ControlServer.bytesPerTurn
        /// When the turn began: a turn that handles one request reads the clock only here, and
        /// stamps its reply with it (stuck readers are judged in seconds).
        let start: MonotonicInstant
        let deadline: MonotonicInstant

        init(start: MonotonicInstant) {
            self.start = start
            deadline = MonotonicInstant(nanoseconds: start.nanoseconds &+ TurnBudget.nanoseconds)
        }

        /// `timePerTurn` in nanoseconds, worked out once: Duration arithmetic divides 128-bit numbers.
        static let nanoseconds: UInt64 = {
            let (seconds, attoseconds) = ControlServer.timePerTurn.components
            return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        }()

        var hasHandledLines: Bool { lines < ControlServer.requestsPerTurn }
        var countsSpent: Bool { lines <= 0 || bytes <= 0 }
        func isSpent(now: MonotonicInstant) -> Bool { countsSpent || now >= deadline }
    }

    /// Queues a client for the next pass (once, however often it becomes readable).
    func scheduleTurn(_ session: ClientSession) {
        guard !session.turnScheduled else { return }
        session.turnScheduled = true
        turnQueue.add(session.connection.descriptor.rawValue, user: session.credentials?.uid ?? UInt32.max)
        loop.schedule(pass)
    }

    /// One pass: a turn for one connection of each user with work. Another pass is scheduled
    /// behind whatever else the loop has ready (new clients, timers, signals, devices), so
    /// between two turns of a user every other user, and every event, gets its turn.
    func takeTurns() {
        turnQueue.nextPass(into: &passConnections)
        for fd in passConnections {
            guard let session = sessions[fd], session.turnScheduled else { continue }
            session.turnScheduled = false
            if takeTurn(session) { scheduleTurn(session) }
        }
        // A user's other connections wait for the next pass.
        if !turnQueue.isEmpty { loop.schedule(pass) }
    }

    func isServing(_ session: ClientSession) -> Bool {
        session.isConnected && !session.closeAfterFlush && !session.readPaused
    }

    /// Handles the lines read so far and reads more while none is whole, within one turn's
    /// budget. True when the turn ended on the budget (the client may have work left).
    func takeTurn(_ session: ClientSession) -> Bool {
        var budget = TurnBudget(start: clock.now)
        var read = false
        var drained = false
        while isServing(session) {
            if processLines(session, budget: &budget) { return true }
            // A reply those lines caused may have failed and dropped the session (its
            // descriptor closed, perhaps reused): read nothing more for it.
            guard isServing(session), !session.connection.descriptor.isClosed else { return false }
            if session.inputEnded {
                finishHalfClosed(session)
                return false
            }
            // A read that did not fill the buffer took all the socket held: reading again would
            // only return EAGAIN. Epoll is level-triggered, so what comes later (or the peer's
            // end of stream) is reported and queues the next turn.
            if drained { return false }
            // The clock is read before the next line (processLines), not before a read.
            if read && budget.countsSpent { return true }
            let count: Int?
            do {
                count = try session.connection.receive(into: readBuffer)
            } catch {
                // ECONNRESET: the client closed with our replies unread on its side, an ordinary
                // way to leave (a script that read what it wanted, Ctrl-C), not a fault.
                drop(session, reason: error.errno == .connectionReset ? nil : "read failed: \(error)")
                return false
            }
            guard let count else { return false }  // drained: readiness queues the next turn
            read = true
            if count == 0 {
                inputEnded(session)
                continue
            }
            drained = count < readBuffer.count
            session.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
        }
        return false
    }

    /// Handles the whole lines read so far, within the turn's budget (checked after each line,
    /// so every turn handles at least one); true when it stopped on the budget. Stops while
    /// the client's unread replies are over `ClientSession.replyBackpressure`: a client that
    /// does not read cannot make the daemon work or allocate for it; its requests wait in the
    /// socket until it catches up.
    func processLines(_ session: ClientSession, budget: inout TurnBudget) -> Bool {
        var start = session.input.startIndex
        // The bytes already searched for a newline on an earlier read are not searched again.
        var searchFrom = min(session.input.startIndex + session.searchedBytes, session.input.endIndex)
        var stoppedOnBudget = false
        var searchedToTheEnd = false
        defer { updateInputDeadline(session) }
        // A reply that could not be sent drops the session: its remaining lines are nobody's.
        while !session.isOverReplyBound, !session.connection.descriptor.isClosed {
            guard let newline = session.input[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) else {
                searchedToTheEnd = true
                break
            }
            // The first line of a turn is always handled; the next only while budget is left.
            if budget.hasHandledLines && budget.isSpent(now: clock.now) {
                stoppedOnBudget = true
                break
            }
            var line = session.input[start..<newline]
            budget.lines -= 1
            budget.bytes -= line.count + 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            start = newline + 1
            searchFrom = start
            // A blank line is no request: it neither counts as speaking nor restarts the deadline.
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                session.lineCompleted = true
                handleLine(line, session, now: budget.start)
            }
            if session.closeAfterFlush { break }
        }
        session.input.removeSubrange(..<start)
        session.searchedBytes = searchedToTheEnd ? session.input.count : 0
        if session.isOverReplyBound && !session.closeAfterFlush && session.isConnected {
            session.readPaused = true
            updateInterest(session)
            return false
        }
        if session.input.count > WireProtocol.maximumLineBytes && !session.closeAfterFlush && !stoppedOnBudget {
            // No newline within the limit: the stream cannot be resynchronised. Say why, then close.
            let failure = WireProtocol.Failure(code: .tooLarge, message: "request line longer than \(WireProtocol.maximumLineBytes) bytes; closing the connection")
            send(WireProtocol.reply(failure).jsonLine, to: session)
            session.input.removeAll()
            session.searchedBytes = 0
            session.closeAfterFlush = true
            metrics.disconnected(.lineTooLong)
            logForClient(session, .warning, "client \(session.id): request line over \(WireProtocol.maximumLineBytes) bytes; disconnecting")
            flush(session)
        }
        return stoppedOnBudget
    }

    // MARK: Half-close

    /// The peer shut its writing side (SHUT_WR): the lines it sent are still handled and the
    /// replies it is owed (deferred ones such as a snapshot's too) are written before the
    /// connection closes. A partial last line is no request.
    func inputEnded(_ session: ClientSession) {
        session.inputEnded = true
        session.inputDeadline = nil
        updateInterest(session)
    }

    /// Called when no whole line is left after the input ended, and when a deferred reply is
    /// sent: closes once nothing more is owed.
    func finishHalfClosed(_ session: ClientSession) {
        guard session.inputEnded, !session.closeAfterFlush else { return }
        session.input.removeAll()
        session.searchedBytes = 0
        guard session.owedReplies == 0 else { return }
        session.closeAfterFlush = true
        flush(session)
    }

    // MARK: Writing

    func send(_ line: [UInt8], to session: ClientSession, now: MonotonicInstant? = nil) {
        let now = now ?? clock.now
        session.enqueueReply(line, now: now)
        sent(to: session, now: now)
    }

    /// A reply spliced from a published value, written straight into the client's output.
    /// With nothing else waiting for the client, it is sent at once from the shared encoding
    /// (`ClientSession.sendReplyNow`); a reply sent whole leaves nothing to flush or watch.
    func sendReply(id: JSONValue, result: EncodedJSON, to session: ClientSession, now: MonotonicInstant) {
        if case let .int(number) = id, session.mayWriteNow {
            switch session.sendReplyNow(id: number, result: result, now: now) {
            case .drained: return
            case .pending: break
            case let .failed(error): return writeFailed(session, error)
            }
        } else {
            session.enqueueReply(id: id, result: result, now: now)
        }
        sent(to: session, now: now)
    }

    private func sent(to session: ClientSession, now: MonotonicInstant) {
        if session.pendingBytes > ClientSession.hardLimit {
            metrics.disconnected(.repliesUnread)
            drop(session, reason: "more than \(ClientSession.hardLimit) bytes of replies unread")
            return
        }
        flush(session, now: now)
    }

    /// Sends one event to every subscriber of its topic. The line is made once and shared.
    func publish(_ topic: Topic, seq: Int, data: EncodedJSON) {
        let line = WireProtocol.eventLine(topic, seq: seq, data: data)
        let now = clock.now
        for session in Array(sessions.values) where session.subscriptions.contains(topic) {
            if session.mayWriteNow {
                // Nothing waits for this subscriber: the shared line goes straight to its socket.
                switch session.sendEventNow(line, now: now) {
                case .drained: continue
                case .pending: break
                case let .failed(error):
                    writeFailed(session, error)
                    continue
                }
            } else {
                session.enqueueEvent(topic, seq: seq, line: line, now: now)
            }
            flush(session, now: now)
        }
    }

    func flush(_ session: ClientSession, now: MonotonicInstant? = nil) {
        // Dropped already (its descriptor is closed, perhaps reused): nothing goes to it.
        guard !session.connection.descriptor.isClosed else { return }
        switch session.flush(now: now ?? clock.now) {
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
            return writeFailed(session, error)
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

    /// A client that closed while replies were on their way (EPIPE, ECONNRESET) left in the
    /// ordinary way; any other failure is logged.
    func writeFailed(_ session: ClientSession, _ error: SystemCallError) {
        drop(session, reason: error.errno == .brokenPipe || error.errno == .connectionReset ? nil : "write failed: \(error)")
    }

    /// Watches for reading unless paused by backpressure, and for writing while output waits.
    func updateInterest(_ session: ClientSession) {
        var interest: EventLoop.Interest = session.readPaused || session.inputEnded ? [] : .readable
        if session.watchingWritable { interest.insert(.writable) }
        guard interest != session.interest else { return }
        session.interest = interest
        // After the peer's SHUT_WR its hang-up would be reported on every pass: not watched.
        loop.modify(session.connection.descriptor, interest: interest, watchHangUp: !session.inputEnded)
    }

    // MARK: Leaving

    func drop(_ session: ClientSession, reason: String?) {
        let fd = session.connection.descriptor.rawValue
        guard session.isConnected, sessions[fd] === session else { return }
        session.isConnected = false
        sessions[fd] = nil
        turnQueue.remove(fd)
        if session.countsAgainstUser, let credentials = session.credentials, let held = unprivilegedConnections[credentials.uid] {
            unprivilegedConnections[credentials.uid] = held > 1 ? held - 1 : nil
        }
        loop.unregister(session.connection.descriptor)
        session.connection.close()
        handler?.clientLeft(sessionID: session.id)
        if session.mayTakeFrames { noteSnapshotClients() }
        if let reason {
            let pid = session.credentials.map { String($0.pid) } ?? "?"
            logForClient(session, .warning, "client \(session.id) (pid \(pid)) disconnected: \(reason)")
        } else {
            log.debug("client \(session.id) disconnected")
        }
    }
}

extension ControlServer {
    /// Tells the handler when the first client who may take snapshots arrives or the last
    /// one leaves.
    func noteSnapshotClients() {
        let present = sessions.values.contains { $0.mayTakeFrames }
        guard present != snapshotClientsPresent else { return }
        snapshotClientsPresent = present
        handler?.snapshotClients(present: present)
    }

    /// Every log line a client causes goes through its user's budget (`UserLogBudgets`).
    func logForClient(_ session: ClientSession, _ priority: Log.Priority, _ text: String) {
        logForUser(session.credentials?.uid ?? UInt32.max, priority, text)
    }

    func logForUser(_ uid: UInt32, _ priority: Log.Priority, _ text: String) {
        guard let line = userLogBudgets.line(text, uid: uid, now: clock.now) else { return }
        log.log(priority, line)
    }
}
