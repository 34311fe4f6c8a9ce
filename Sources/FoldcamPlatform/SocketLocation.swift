import Glibc

/// Where the daemon's socket lives, for the daemon and its clients alike:
/// `$FOLDCAM_SOCKET`, else `/run/foldcam/foldcam.sock` for root (the system service),
/// else `$XDG_RUNTIME_DIR/foldcam.sock` for a user's own daemon.
public enum SocketLocation {
    public static let systemPath = "/run/foldcam/foldcam.sock"

    public static func daemonPath(environment: [String: String]) -> String {
        if let path = environment["FOLDCAM_SOCKET"], !path.isEmpty { return path }
        if getuid() == 0 { return systemPath }
        return userPath(environment: environment)
    }

    /// Clients prefer an explicit path, then a running system daemon, then the user's own.
    public static func clientPath(environment: [String: String]) -> String {
        if let path = environment["FOLDCAM_SOCKET"], !path.isEmpty { return path }
        if getuid() == 0 || access(systemPath, F_OK) == 0 { return systemPath }
        return userPath(environment: environment)
    }

    static func userPath(environment: [String: String]) -> String {
        let directory = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return directory + "/foldcam.sock"
    }

    /// Creates the socket's directory (mode 0755) if it is missing.
    public static func prepareDirectory(for path: String) throws(SystemCallError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        if access(directory, F_OK) == 0 { return }
        _ = try Syscall.check("mkdir \(directory)") { mkdir(directory, 0o755) }
    }
}

/// Looks up a group id by name (at start-up and reload only: NSS may block).
public enum GroupLookup {
    public static func id(named name: String) -> UInt32? {
        guard let entry = getgrnam(name) else { return nil }
        return entry.pointee.gr_gid
    }

    public static var currentUserID: UInt32 { getuid() }
}

/// CLOCK_MONOTONIC in nanoseconds: the clock snapshot timestamps use (clients read the same
/// clock, e.g. Python's time.monotonic_ns()).
public enum MonotonicClock {
    public static var nanoseconds: UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
