import Glibc

/// inotify on one file: how often anyone opened and closed it since the last drain. The daemon
/// watches its loopback's node this way to learn when readers come and go without polling
/// (docs/virtual-camera.md, "Only while watched").
public final class OpenCloseWatch {
    public let descriptor: FileDescriptor
    public let path: String
    private var buffer = [UInt8](repeating: 0, count: 4096)

    public struct Counts: Sendable, Equatable {
        public var opens = 0
        public var closes = 0
        /// The kernel's queue overflowed: events were lost, counts are incomplete.
        public var overflowed = false
    }

    public init(path: String) throws(SystemCallError) {
        descriptor = FileDescriptor(owning: try Syscall.inotifyInit())
        self.path = path
        _ = try Syscall.inotifyAddWatch(descriptor.rawValue, path: path, mask: UInt32(IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE))
    }

    /// Everything queued since the last call (the descriptor is non-blocking).
    public func drain() -> Counts {
        var counts = Counts()
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { raw throws(SystemCallError) in try descriptor.read(into: raw) }
            } catch {
                return counts  // EAGAIN: drained
            }
            guard count > 0 else { return counts }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len, then len bytes of name.
            while offset + 16 <= count {
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let nameLength = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) }
                if mask & UInt32(IN_OPEN) != 0 { counts.opens += 1 }
                if mask & UInt32(IN_CLOSE_WRITE | IN_CLOSE_NOWRITE) != 0 { counts.closes += 1 }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { counts.overflowed = true }
                offset += 16 + Int(nameLength)
            }
        }
    }
}

/// Who holds a file open, from /proc/PID/fd: the processes the daemon may see (all of them as
/// root; under the shipped systemd unit, as user foldcam with no capabilities, only its own:
/// another user's /proc/PID/fd is open only to those who may trace that process).
public enum OpenFileHolders {
    public struct Count: Sendable, Equatable {
        /// Open descriptors of `path` in processes other than this one.
        public var descriptors = 0
        /// Processes whose descriptors could not be listed (not ours to see).
        public var hidden = 0
    }

    /// Counts every /proc/PID/fd/N whose link names `path` (the kernel names an open file by
    /// its path with symbolic links resolved, /dev/videoN, so `path` is resolved first).
    public static func count(path: String) -> Count {
        let path = Syscall.resolvedPath(path) ?? path
        let me = Syscall.processID()
        var result = Count()
        for name in Directory.names(in: "/proc") {
            guard let pid = Int32(name), pid != me else { continue }
            let directory = "/proc/\(name)/fd"
            let descriptors = Directory.names(in: directory)
            if descriptors.isEmpty {
                if let error = Syscall.canList(directory), error == .permissionDenied { result.hidden += 1 }
                continue
            }
            for fd in descriptors where Syscall.readLink("\(directory)/\(fd)") == path {
                result.descriptors += 1
            }
        }
        return result
    }

    /// Whether this process can see other users' processes in /proc at all (pid 1's descriptor
    /// list is a good test: it is root's, and hidden by hidepid and ProtectProc).
    public static var seesOtherUsers: Bool {
        Syscall.processID() == 1 || Syscall.canList("/proc/1/fd") == nil
    }
}
