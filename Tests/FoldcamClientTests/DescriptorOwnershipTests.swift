@testable import FoldcamClient
import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// A connection's descriptor number stays its own until the connection object goes away.
///
/// The reader thread used to close the descriptor as soon as the daemon ended the connection.
/// The number was then free for the next socket or file the process opened, and the caller's
/// later `close()` (a shutdown of that number) ended someone else's connection: in the parallel
/// suite, another test's fresh connection saw "the daemon closed the connection" with no reply.
@Suite struct DescriptorOwnershipTests {
    @Test func aConnectionTheDaemonEndedKeepsItsDescriptorUntilReleased() async throws {
        let daemon = try await SimulatedDaemon()
        let connection = try FoldcamConnection(path: daemon.socketPath)
        defer { connection.close() }
        let fd = connection.descriptorNumber
        let identity = try #require(Self.identity(of: fd))
        _ = try await connection.subscribe([.posture])
        try await daemon.killHard()
        // The reader thread has seen the end once the event stream finishes.
        try await withTimeout(20, "event stream end after the daemon died") {
            for await _ in connection.events {}
        }
        #expect(connection.closeReason != nil)
        // Whatever the process opens now takes the lowest free numbers: had the reader closed
        // the descriptor, one of these would get it.
        let others = (0..<16).compactMap { _ in SocketPair() }
        #expect(Self.identity(of: fd) == identity, "descriptor \(fd) no longer names the connection's socket while the connection exists")
        connection.close()
        for other in others {
            #expect(other.carriesAByte(), "closing the dead connection ended an unrelated socket (descriptors \(other.ends))")
        }
    }

    @Test func aReleasedConnectionClosesItsDescriptor() async throws {
        let daemon = try await SimulatedDaemon()
        var connection: FoldcamConnection? = try FoldcamConnection(path: daemon.socketPath)
        let fd = try #require(connection?.descriptorNumber)
        let identity = try #require(Self.identity(of: fd))
        _ = try await connection?.hello()
        connection = nil
        // The reader thread lets go once it has seen the shutdown; then the socket is closed
        // (its number may already name something else the process opened since).
        let deadline = ContinuousClock.now + .seconds(20)
        while Self.identity(of: fd) == identity && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(Self.identity(of: fd) != identity, "descriptor \(fd) still names the socket of a released connection")
    }

    /// The socket a descriptor names (device and inode), nil when the number is not open.
    static func identity(of fd: Int32) -> [UInt64]? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
}

/// Two connected Unix sockets owned by the test, closed on deinit.
private final class SocketPair {
    let ends: (Int32, Int32)

    init?() {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
        ends = (fds[0], fds[1])
    }

    deinit {
        Glibc.close(ends.0)
        Glibc.close(ends.1)
    }

    /// One byte sent on one end arrives at the other (fails once either end was shut down).
    func carriesAByte() -> Bool {
        var byte: UInt8 = 42
        guard send(ends.0, &byte, 1, Int32(MSG_NOSIGNAL)) == 1 else { return false }
        byte = 0
        return recv(ends.1, &byte, 1, Int32(MSG_DONTWAIT)) == 1 && byte == 42
    }
}
