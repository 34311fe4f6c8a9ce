import CLinuxShims
import Glibc

/// Who is on the other end of a Unix socket, as the kernel vouches (SO_PEERCRED, SO_PEERGROUPS).
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// Supplementary groups at connect time.
    public var groups: [UInt32]
}

/// One connected Unix stream socket.
public final class UnixConnection: @unchecked Sendable {
    // Sendable: an owning wrapper over an immutable descriptor number; users serialize access.
    public let descriptor: FileDescriptor

    init(_ descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    /// A blocking connection to a listening socket.
    public static func connect(path: String) throws(SystemCallError) -> UnixConnection {
        let address = try UnixSocketAddress(path)
        let fd = FileDescriptor(owning: try Syscall.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue)))
        try address.withSockaddr { (pointer, length) throws(SystemCallError) in try Syscall.connect(fd.rawValue, pointer, length) }
        return UnixConnection(fd)
    }

    public func peerCredentials() throws(SystemCallError) -> PeerCredentials {
        var credentials = cfoldcam_ucred()
        var length = socklen_t(MemoryLayout<cfoldcam_ucred>.size)
        try Syscall.getsockopt(descriptor.rawValue, SOL_SOCKET, cfoldcam_SO_PEERCRED, &credentials, &length)
        var groups = [gid_t](repeating: 0, count: 64)
        var groupBytes = socklen_t(groups.count * MemoryLayout<gid_t>.size)
        let fetched = groups.withUnsafeMutableBytes { raw -> Bool in
            (try? Syscall.getsockopt(descriptor.rawValue, SOL_SOCKET, cfoldcam_SO_PEERGROUPS, raw.baseAddress!, &groupBytes)) != nil
        }
        let count = fetched ? Int(groupBytes) / MemoryLayout<gid_t>.size : 0
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, groups: Array(groups.prefix(count)))
    }

    /// True when the peer has closed its end and left nothing unread; checked without reading
    /// or blocking (a connect-and-close flood must not hold client slots).
    public var peerHasClosed: Bool {
        var byte: UInt8 = 0
        return recv(descriptor.rawValue, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    /// Reads what is available: nil when nothing is ready, 0 bytes at end of stream.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        do {
            return try Syscall.read(descriptor.rawValue, into: buffer)
        } catch {
            if error.errno == .wouldBlock { return nil }
            throw error
        }
    }

    /// Writes as much as the socket takes now; returns the count (0 when it is full).
    public func send(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        do {
            return try Syscall.send(descriptor.rawValue, from: bytes)
        } catch {
            if error.errno == .wouldBlock { return 0 }
            throw error
        }
    }

    /// Writes as much of `first`, `second` and `third`, in that order, as the socket takes now,
    /// in one system call; returns the count (0 when it is full). A reply made of a shared
    /// encoding between a short head and tail goes out without being copied into one buffer.
    public func send(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer, _ third: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try withUnsafeTemporaryAllocation(of: iovec.self, capacity: 3) { parts throws(SystemCallError) in
            parts[0] = iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count)
            parts[1] = iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count)
            parts[2] = iovec(iov_base: UnsafeMutableRawPointer(mutating: third.baseAddress), iov_len: third.count)
            do throws(SystemCallError) {
                return try Syscall.send(descriptor.rawValue, gathering: parts)
            } catch {
                if error.errno == .wouldBlock { return 0 }
                throw error
            }
        }
    }

    /// Blocking: writes everything.
    public func sendAll(_ bytes: [UInt8]) throws(SystemCallError) {
        let result: Result<Void, SystemCallError> = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                do throws(SystemCallError) {
                    offset += try Syscall.send(descriptor.rawValue, from: UnsafeRawBufferPointer(rebasing: raw[offset...]))
                } catch {
                    return .failure(error)
                }
            }
            return .success(())
        }
        try result.get()
    }

    public func close() { descriptor.close() }
}
