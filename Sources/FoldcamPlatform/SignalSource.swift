import CLinuxShims
import Glibc

/// Delivers signals as readable events (signalfd) so they are handled on the event loop like
/// any other input, never in an async signal handler. Must be created before other threads
/// start, so every thread inherits the blocked mask.
public final class SignalSource {
    /// The signals a service handles, by their usual names.
    public enum Signal: Sendable, CaseIterable, CustomStringConvertible {
        case hangUp, interrupt, terminate

        var number: Int32 {
            switch self {
            case .hangUp: return SIGHUP
            case .interrupt: return SIGINT
            case .terminate: return SIGTERM
            }
        }

        public var description: String {
            switch self {
            case .hangUp: return "SIGHUP"
            case .interrupt: return "SIGINT"
            case .terminate: return "SIGTERM"
            }
        }
    }

    public let descriptor: FileDescriptor

    public init(_ signals: [Signal]) throws(SystemCallError) {
        descriptor = FileDescriptor(owning: try Syscall.signalFD(signals.map(\.number)))
    }

    /// The signals that arrived since the last call.
    public func pending() -> [Signal] {
        var received: [Signal] = []
        var info = signalfd_siginfo()
        while true {
            let count = try? withUnsafeMutableBytes(of: &info) { try descriptor.read(into: $0) }
            guard count == MemoryLayout<signalfd_siginfo>.size else { return received }
            if let signal = Signal.allCases.first(where: { $0.number == Int32(info.ssi_signo) }) { received.append(signal) }
        }
    }

    /// Ignore SIGPIPE process-wide: a vanished client must be an EPIPE, not a death.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }
}
