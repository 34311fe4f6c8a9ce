import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// Accepting clients: who gets a slot (docs/security.md), and what happens when the process
/// runs out of file descriptors.
extension ControlServer {
    /// How long accepting pauses after EMFILE/ENFILE before it is tried again.
    static let acceptPause: Duration = .milliseconds(100)

    func acceptPending() {
        while true {
            let connection: UnixConnection?
            do {
                connection = try listener.accept()
            } catch {
                acceptFailed(error)
                return
            }
            guard let connection else { return }
            // A connect-and-close burst must not fill the slots with peers that are gone
            // (one non-blocking peek; a peer that sent a request and left is still served).
            if connection.peerHasClosed {
                connection.close()
                continue
            }
            let credentials = try? connection.peerCredentials()
            if let (reason, refusal) = admissionRefusal(credentials) {
                metrics.refused(reason)
                let failure = WireProtocol.Failure(code: .tooManyClients, message: refusal)
                _ = WireProtocol.reply(failure).jsonLine.withUnsafeBytes { try? connection.send($0) }
                let who = credentials.map { "uid \($0.uid), pid \($0.pid)" } ?? "unknown peer"
                if let line = refusalLogBudget.line("refused a client (\(who)): \(refusal)", now: clock.now) { log.warning(line) }
                connection.close()
                continue
            }
            admit(connection, credentials: credentials)
        }
    }

    private func admit(_ connection: UnixConnection, credentials: PeerCredentials?) {
        let session = ClientSession(id: nextSessionID, connection: connection, credentials: credentials)
        nextSessionID += 1
        do {
            try loop.register(connection.descriptor) { [unowned self, unowned session] readiness in
                self.service(session, readiness)
            }
        } catch {
            log.error("cannot watch a new client: \(error)")
            connection.close()
            return
        }
        sessions[connection.descriptor.rawValue] = session
        session.seesPinOwners = authorizer.permits(.control, credentials)
        session.mayTakeFrames = authorizer.permits(.frames, credentials)
        if session.mayTakeFrames { noteSnapshotClients() }
        if let credentials, !authorizer.isPrivileged(credentials) {
            session.countsAgainstUser = true
            unprivilegedConnections[credentials.uid, default: 0] += 1
        }
        // A client that never sends a whole request must not hold its slot.
        setInputDeadline(session, clock.now + limits.requestTimeout)
        log.debug("client \(session.id) connected (pid \(credentials.map { String($0.pid) } ?? "?"), uid \(credentials.map { String($0.uid) } ?? "?"))")
    }

    /// Why a new client may not have a slot, or nil. Privileged peers may take every slot;
    /// others share what is left after the reserved slots, at most `maxClientsPerUser` each,
    /// so no local user can lock root or the control group out.
    func admissionRefusal(_ credentials: PeerCredentials?) -> (DaemonMetrics.RefusalReason, String)? {
        if sessions.count >= limits.maxClients {
            return (.maxClients, "the daemon serves at most \(limits.maxClients) clients (maxClients); try again later")
        }
        guard !authorizer.isPrivileged(credentials) else { return nil }
        let shared = limits.maxClients - limits.reservedClients
        if sessions.count >= shared {
            return (.reservedClients, "all \(shared) unreserved client slots are in use (the other \(limits.reservedClients) are kept for \(authorizer.privilegedDescription): reservedClients); try again later")
        }
        guard let credentials else { return (.unidentified, "the daemon cannot tell who you are (SO_PEERCRED failed)") }
        let held = unprivilegedConnections[credentials.uid] ?? 0
        if held >= limits.maxClientsPerUser {
            return (.maxClientsPerUser, "uid \(credentials.uid) already has \(held) connections; each user may hold \(limits.maxClientsPerUser) (maxClientsPerUser)")
        }
        return nil
    }

    /// Out of descriptors (EMFILE/ENFILE): the pending connection stays in the backlog and the
    /// listener stays readable, so retrying at once would spin. Stop watching it for a moment,
    /// say so once a minute, and try again.
    private func acceptFailed(_ error: SystemCallError) {
        let outOfDescriptors = error.errno == .tooManyOpenFiles || error.errno == .tooManyOpenFilesInSystem
        let advice = outOfDescriptors ? " (out of file descriptors: lower maxClients or raise LimitNOFILE=); accepting again in \(Self.acceptPause)" : ""
        if let line = acceptFailureLogBudget.line("accepting a client failed: \(error)\(advice)", now: clock.now) { log.error(line) }
        loop.modify(listener.descriptor, interest: [])
        try? acceptPauseTimer.schedule(after: Self.acceptPause)
    }

    func resumeAccepting() {
        loop.modify(listener.descriptor, interest: .readable)
    }
}
