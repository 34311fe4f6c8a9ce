import CLinuxShims
import Glibc

/// A listening Unix stream socket.
public final class UnixListener {
    public let descriptor: FileDescriptor
    /// The path to remove on shutdown; nil when systemd owns the socket (activation).
    public let ownedPath: String?
    /// The device and inode of the socket file this listener created: at shutdown only that
    /// file is removed, never one someone else has put at the path since.
    private let createdFile: (device: UInt64, inode: UInt64)?

    /// Binds `path`. A socket file left by a dead daemon is replaced; one that something still
    /// listens on is not (another foldcamd is running).
    public init(path: String, mode: mode_t = 0o666, backlog: Int32 = 128) throws(SystemCallError) {
        let address = try UnixSocketAddress(path)
        try Self.removeStaleSocket(path)
        let fd = FileDescriptor(owning: try Syscall.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)))
        // Create with the final mode at once so no client ever sees a wider one.
        let previousMask = umask(~mode & 0o777)
        defer { umask(previousMask) }
        try address.withSockaddr { (pointer, length) throws(SystemCallError) in try Syscall.bind(fd.rawValue, pointer, length) }
        try Syscall.listen(fd.rawValue, backlog: backlog)
        descriptor = fd
        ownedPath = path
        createdFile = Self.identity(of: path)
    }

    /// Adopts a socket passed by systemd socket activation.
    public init(activated fd: Int32) throws(SystemCallError) {
        descriptor = FileDescriptor(owning: fd)
        try descriptor.setNonBlocking()
        ownedPath = nil
        createdFile = nil
    }

    /// The device and inode of the socket file at `path`, nil when there is none.
    static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        guard let status = try? Syscall.linkStatus(path), status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    static func removeStaleSocket(_ path: String) throws(SystemCallError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }  // nothing there
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw SystemCallError("\(path) exists and is not a socket; remove it or choose another path", Errno(rawValue: EEXIST))
        }
        if someoneListens(at: path) {
            throw SystemCallError("\(path): another process is listening (is foldcamd already running?)", .addressInUse)
        }
        try Syscall.unlink(path)
    }

    /// Whether a process listens at `path`, found without waiting: a non-blocking connect
    /// succeeds, or fails with EAGAIN when that process's backlog is full (a stopped daemon
    /// with a full backlog would hold a blocking connect forever). Only ECONNREFUSED and
    /// ENOENT mean nobody is there.
    static func someoneListens(at path: String) -> Bool {
        guard let address = try? UnixSocketAddress(path),
              let fd = try? FileDescriptor(owning: Syscall.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue))) else { return false }
        do {
            try address.withSockaddr { (pointer, length) throws(SystemCallError) in try Syscall.connect(fd.rawValue, pointer, length) }
            return true
        } catch {
            return error.errno != .connectionRefused && error.errno != .noEntry
        }
    }

    /// The next pending connection, or nil when none is waiting.
    public func accept() throws(SystemCallError) -> UnixConnection? {
        do {
            return UnixConnection(FileDescriptor(owning: try Syscall.accept(descriptor.rawValue)))
        } catch {
            if error.errno == .wouldBlock { return nil }
            throw error
        }
    }

    /// Closes the socket and removes its file: only the one this listener created (same device
    /// and inode), so a socket another process put at the path is left alone.
    public func shutdown() {
        descriptor.close()
        guard let ownedPath, let created = createdFile, let found = Self.identity(of: ownedPath),
              found.device == created.device && found.inode == created.inode else { return }
        try? Syscall.unlink(ownedPath)
    }
}
