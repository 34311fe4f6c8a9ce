import FoldcamCore

/// Everything a foldcam client call can fail with.
public enum FoldcamClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing listens at the socket path (no file, or a stale file nobody listens on).
    case daemonNotRunning(path: String)
    /// The socket exists but could not be connected (for example, permission denied).
    case connectFailed(path: String, reason: String)
    /// The process serving the socket runs as a user the client does not trust (not root, the
    /// service user or the client's own): it may be impersonating foldcamd.
    case untrustedServer(path: String, reason: String)
    /// The daemon answered with an error (`code` is the protocol's code, e.g. "forbidden").
    case daemon(code: String, message: String)
    /// The connection ended (daemon stopped, restarted, or dropped this client).
    case disconnected(reason: String)
    /// The daemon sent something that is not a protocol message.
    case invalidReply(String)
    /// The calling task was cancelled while waiting.
    case cancelled

    /// The daemon's error code as the protocol's enum, when it is one this library knows.
    public var errorCode: WireProtocol.ErrorCode? {
        if case let .daemon(code, _) = self { return WireProtocol.ErrorCode(rawValue: code) }
        return nil
    }

    /// True when the daemon refused a change because of who is asking.
    public var isForbidden: Bool { errorCode == .forbidden }

    public var description: String {
        switch self {
        case let .daemonNotRunning(path):
            return "daemon not running at \(path) (start foldcamd or set FOLDCAM_SOCKET)"
        case let .connectFailed(path, reason):
            return "cannot connect to the foldcam daemon at \(path): \(reason)"
        case let .untrustedServer(_, reason):
            return "refusing to talk to the server: \(reason)"
        case let .daemon(code, message):
            return "\(code): \(message)"
        case let .disconnected(reason):
            return "connection to the foldcam daemon lost: \(reason)"
        case let .invalidReply(detail):
            return "unexpected message from the foldcam daemon: \(detail)"
        case .cancelled:
            return "cancelled"
        }
    }
}
