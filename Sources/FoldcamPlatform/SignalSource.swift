import CLinuxShims
import Glibc

/// Delivers signals as readable events (signalfd) so they are handled on the event loop like
/// any other input, never in an async signal handler. Must be created before other threads
/// start, so every thread inherits the blocked mask.
public final class SignalSource {
    public let descriptor: FileDescriptor

    public init(_ signals: [Int32]) throws(SystemCallError) {
        descriptor = FileDescriptor(owning: try Syscall.signalFD(signals))
    }

    /// The signals that arrived since the last call.
    public func pending() -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while true {
            let count = try? withUnsafeMutableBytes(of: &info) { try descriptor.read(into: $0) }
            guard count == MemoryLayout<signalfd_siginfo>.size else { return received }
            received.append(Int32(info.ssi_signo))
        }
    }

    /// Ignore SIGPIPE process-wide: a vanished client must be an EPIPE, not a death.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }
}
