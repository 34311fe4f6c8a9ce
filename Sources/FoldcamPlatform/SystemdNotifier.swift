import Glibc
import CLinuxShims

/// sd_notify without libsystemd: datagrams to `$NOTIFY_SOCKET` ("READY=1", "STATUS=...").
/// Does nothing when not run by systemd.
public struct SystemdNotifier: Sendable {
    private let socketPath: String?
    /// Half the `WatchdogSec=` interval when systemd asked for keep-alives (and it is for us).
    public let watchdogInterval: Duration?

    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        if let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0,
           environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == getpid() }) ?? true {
            watchdogInterval = .microseconds(Int64(usec / 2))
        } else {
            watchdogInterval = nil
        }
    }

    public var isActive: Bool { socketPath != nil }

    /// Sends one notification; failures are returned, not thrown: notification is best-effort,
    /// and it never waits (MSG_DONTWAIT) on a notify socket whose queue is full.
    @discardableResult
    public func notify(_ message: String) -> SystemCallError? {
        guard let socketPath else { return nil }
        do {
            let address = try UnixSocketAddress(socketPath)
            let fd = FileDescriptor(owning: try Syscall.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue)))
            let bytes = Array(message.utf8)
            try address.withSockaddr { (pointer, length) throws(SystemCallError) in
                _ = try Syscall.check("sendto \(socketPath)") {
                    bytes.withUnsafeBytes { sendto(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), pointer, length) }
                }
            }
            return nil
        } catch {
            return error
        }
    }
}

/// Sockets passed by systemd socket activation (`LISTEN_FDS`, `LISTEN_PID`), starting at fd 3.
public enum SocketActivation {
    public static func listeningDescriptors(environment: [String: String]) -> [Int32] {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
              let count = environment["LISTEN_FDS"].flatMap(Int32.init), count > 0 else { return [] }
        return (0..<count).map { 3 + $0 }
    }
}
