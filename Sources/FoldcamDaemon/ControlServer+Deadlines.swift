import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// The timers that end connections: a request not finished in time, a reader that stopped.
/// Each runs only while some client is in that state, so an idle daemon never wakes.
extension ControlServer {
    // MARK: Request deadlines

    /// After reading: a client with half a line (or nothing yet) must finish it in time. The
    /// deadline runs from connecting or from the first byte of a line, not from the latest
    /// byte, so a byte a second does not keep a slot.
    func updateInputDeadline(_ session: ClientSession) {
        guard session.isConnected, !session.closeAfterFlush, !session.inputEnded else { return }
        if session.input.isEmpty {
            // Only a request ends the deadline set at connect: blank lines do not.
            if session.hasSpoken { session.inputDeadline = nil }
        } else if session.inputDeadline == nil || session.lineCompleted {
            setInputDeadline(session, clock.now + limits.requestTimeout)
        }
        session.lineCompleted = false
    }

    func setInputDeadline(_ session: ClientSession, _ deadline: MonotonicInstant) {
        session.inputDeadline = deadline
        guard !deadlineTimerArmed else { return }
        // Runs only while some client owes the rest of a request: an idle daemon never wakes.
        deadlineTimerArmed = true
        let period = min(limits.requestTimeout / 4, .seconds(1))
        try? deadlineTimer.schedule(after: period, repeating: period)
    }

    func closeLateClients() {
        let now = clock.now
        var anyPending = false
        for session in Array(sessions.values) {
            // A client paused by backpressure is waiting for us, not we for it.
            guard let deadline = session.inputDeadline, !session.closeAfterFlush, !session.readPaused else { continue }
            guard now >= deadline else {
                anyPending = true
                continue
            }
            session.inputDeadline = nil
            let what = session.hasSpoken ? "a request line was left unfinished" : "no request arrived"
            let failure = WireProtocol.Failure(code: .timeout, message: "\(what) for \(limits.requestTimeout) (requestTimeoutSeconds); closing the connection")
            session.input.removeAll()
            session.searchedBytes = 0
            session.closeAfterFlush = true
            metrics.disconnected(.requestTimeout)
            logForClient(session, .info, "client \(session.id): \(what) for \(limits.requestTimeout); disconnecting")
            send(WireProtocol.reply(failure).jsonLine, to: session)
        }
        if !anyPending {
            deadlineTimer.cancel()
            deadlineTimerArmed = false
        }
    }

    // MARK: Stuck clients

    /// The timer runs only while some client has unsent output, so an idle daemon never wakes.
    func armStuckTimer() {
        guard !stuckTimerArmed else { return }
        stuckTimerArmed = true
        let period = min(limits.stuckTimeout, .seconds(5))
        try? stuckTimer.schedule(after: period, repeating: period)
    }

    func disconnectStuckClients() {
        let now = clock.now
        var anyPending = false
        for session in Array(sessions.values) {
            guard let since = session.waitingSince else { continue }
            if now - since > limits.stuckTimeout {
                metrics.disconnected(.stuck)
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
}
