import FoldcamCore

/// What a held pin reports: in force, lost (the gap begins), or refused for good.
public enum FoldcamPinUpdate: Sendable, Equatable {
    /// The pin is in force: made on a new connection. `gap` is how long it was not in force
    /// before (nil for the first pin); `posture` is the daemon's `pinView` result.
    case pinned(gap: Duration?, posture: JSONValue)
    /// The connection that held the pin ended or could not be made (the daemon stopped or
    /// restarts): the pin is not in force. It is made again once a connection is, after
    /// `retryIn` and then with the backoff.
    case lost(FoldcamClientError, retryIn: Duration)
    /// The daemon refused the pin (`forbidden`, an unknown display, ...): the sequence ends.
    case refused(FoldcamClientError)
}

/// A pin that survives daemon restarts. A pin belongs to the connection that made it
/// (docs/protocol.md, "Pins"); iterating `updates` opens a connection, pins `display` on it and
/// holds it, and when the daemon goes away connects again with backoff and pins again,
/// reporting the gap. The pin ends when the iterating task is cancelled (its connection
/// closes), or after `.refused`.
///
/// ```swift
/// for await update in FoldcamPin(display: "outer").updates {
///     if case let .pinned(gap?, _) = update { print("pinned again after \(gap)") }
/// }
/// ```
public struct FoldcamPin: Sendable {
    public let display: String
    public let socketPath: String
    public let backoff: ReconnectBackoff

    public init(display: String, socketPath: String? = nil, backoff: ReconnectBackoff = .standard) {
        self.display = display
        self.socketPath = socketPath ?? FoldcamSocket.defaultPath
        self.backoff = backoff
    }

    /// The pin's updates: `.pinned` once it is in force, `.lost` when its connection ends,
    /// `.pinned(gap:)` again when it is back. Holding the pin lasts as long as the iteration.
    public var updates: FoldcamSequence<FoldcamPinUpdate> {
        let pin = self
        return FoldcamSequence {
            let (stream, continuation) = AsyncStream.makeStream(of: FoldcamPinUpdate.self, bufferingPolicy: .unbounded)
            let task = Task {
                await pin.hold { continuation.yield($0) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
            return stream
        }
    }

    /// Errors that mean the pin itself is wrong or not allowed: trying again cannot help.
    static func isFinal(_ error: FoldcamClientError) -> Bool {
        switch error {
        case .untrustedServer: return true
        case .daemon:
            guard let code = error.errorCode else { return false }
            return [.forbidden, .invalidParams, .invalidRequest, .unknownMethod, .parseError, .tooLarge].contains(code)
        default: return false
        }
    }

    /// Connect, pin, hold until the connection ends; then wait and start over. Returns when the
    /// task is cancelled or the pin is refused.
    func hold(emit: @Sendable (FoldcamPinUpdate) -> Void) async {
        var delay = backoff.initial
        var lostAt: ContinuousClock.Instant?
        var pinnedOnce = false
        while !Task.isCancelled {
            var failure: FoldcamClientError
            do throws(FoldcamClientError) {
                let connection = try FoldcamConnection(path: socketPath)
                defer { connection.close() }
                let posture = try await connection.pinView(display: display)
                // Subscribed only to learn when the connection ends; the events are not used.
                try await connection.subscribe([.posture])
                emit(.pinned(gap: pinnedOnce ? lostAt.map { ContinuousClock.now - $0 } : nil, posture: posture))
                pinnedOnce = true
                lostAt = nil
                delay = backoff.initial
                for await _ in connection.events {}
                if Task.isCancelled { return }
                failure = connection.closeReason ?? .disconnected(reason: "the daemon closed the connection")
            } catch {
                if Task.isCancelled { return }
                failure = error
            }
            if Self.isFinal(failure) {
                emit(.refused(failure))
                return
            }
            if lostAt == nil { lostAt = ContinuousClock.now }
            emit(.lost(failure, retryIn: delay))
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
            delay = backoff.next(after: delay)
        }
    }
}
