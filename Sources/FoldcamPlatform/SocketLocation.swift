import Glibc

/// Where the daemon's socket lives, for the daemon and its clients alike:
/// `$FOLDCAM_SOCKET`, else `/run/foldcam/foldcam.sock` for root (the system service),
/// else `$XDG_RUNTIME_DIR/foldcam.sock` for a user's own daemon. Never a shared directory
/// such as /tmp, where another user could create the name first (docs/security.md).
public enum SocketLocation {
    public static let systemPath = "/run/foldcam/foldcam.sock"
    /// The system service's user (systemd/foldcam.sysusers.conf): clients trust a server
    /// running as root, as this user, or as themselves.
    public static let serviceUser = "foldcam"

    /// Why the daemon will not listen where it was asked to.
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    public static func daemonPath(environment: [String: String]) throws(Refusal) -> String {
        if let path = environment["FOLDCAM_SOCKET"], !path.isEmpty { return path }
        if getuid() == 0 { return systemPath }
        guard let path = userPath(environment: environment) else {
            throw Refusal(description: "XDG_RUNTIME_DIR is not set, so there is no private directory for the socket; pass --socket PATH or set FOLDCAM_SOCKET to a path in a directory only you can write (never a shared one such as /tmp)")
        }
        return path
    }

    /// Clients prefer an explicit path, then a running system daemon, then the user's own.
    public static func clientPath(environment: [String: String]) -> String {
        if let path = environment["FOLDCAM_SOCKET"], !path.isEmpty { return path }
        if getuid() == 0 || access(systemPath, F_OK) == 0 { return systemPath }
        return userPath(environment: environment) ?? systemPath
    }

    static func userPath(environment: [String: String]) -> String? {
        guard let directory = environment["XDG_RUNTIME_DIR"], !directory.isEmpty else { return nil }
        return directory + "/foldcam.sock"
    }

    /// Creates the socket's directory (mode 0755) if it is missing, then refuses one another
    /// user controls: owned by someone else, or writable by others without the sticky bit, or
    /// below a component that is (`DirectorySafety`). Any would let another user replace the
    /// socket or squat its name.
    public static func prepareDirectory(for path: String) throws(Refusal) {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if access(directory, F_OK) != 0 && mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw Refusal(description: "cannot create the socket directory \(directory): \(Errno(rawValue: errno))")
        }
        try checkDirectory(directory)
        // The whole path: a parent another user owns or may write to could swap the directory.
        if let refusal = DirectorySafety.check(directory, shared: true).refusal {
            throw Refusal(description: "refusing to listen in \(directory): \(refusal)")
        }
    }

    static func checkDirectory(_ directory: String) throws(Refusal) {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            throw Refusal(description: "cannot inspect the socket directory \(directory): \(Errno(rawValue: errno))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw Refusal(description: "the socket directory \(directory) is not a directory")
        }
        let me = getuid()
        if status.st_uid != me {
            throw Refusal(description: "refusing to listen in \(directory): it belongs to uid \(status.st_uid), not to the daemon's user (uid \(me)), so its owner could replace the socket; use a directory of your own (e.g. $XDG_RUNTIME_DIR)")
        }
        if status.st_mode & 0o022 != 0 && status.st_mode & S_ISVTX == 0 {
            throw Refusal(description: "refusing to listen in \(directory): others may write to it (mode \(String(status.st_mode & 0o7777, radix: 8))) and it has no sticky bit, so they could replace the socket; chmod go-w \(directory)")
        }
    }

    /// Uids whose server a client trusts: root, the service user, and the client's own.
    public static func trustedServerUIDs() -> [UInt32] {
        var uids: [UInt32] = [0, getuid()]
        if let service = GroupLookup.userID(named: serviceUser) { uids.append(service) }
        return uids
    }

    /// Nil when a server running as `credentials` may be trusted, else why not.
    public static func distrust(_ credentials: PeerCredentials, path: String) -> String? {
        if trustedServerUIDs().contains(credentials.uid) { return nil }
        return "the process serving \(path) (pid \(credentials.pid)) runs as uid \(credentials.uid), not as root, \(serviceUser) or you; it may be impersonating foldcamd, so nothing it says is trusted (remove the socket or set FOLDCAM_SOCKET)"
    }
}

/// Looks up a group id by name (at start-up and reload only: NSS may block).
public enum GroupLookup {
    public static func id(named name: String) -> UInt32? {
        guard let entry = getgrnam(name) else { return nil }
        return entry.pointee.gr_gid
    }

    public static func name(of id: UInt32) -> String? {
        guard let entry = getgrgid(id) else { return nil }
        return String(cString: entry.pointee.gr_name)
    }

    public static var currentUserID: UInt32 { getuid() }

    /// The uid of a user by name (the clients' check of the system daemon's user).
    /// getpwnam_r: clients look this up from any thread (getpwnam's static buffer is shared).
    public static func userID(named name: String) -> UInt32? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        let status = getpwnam_r(name, &entry, &buffer, buffer.count, &found)
        guard status == 0, found != nil else { return nil }
        return entry.pw_uid
    }

    /// The group owning `path` (the daemon's own configured device node, never a client's).
    public static func groupOwner(of path: String) -> UInt32? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_gid
    }
}
