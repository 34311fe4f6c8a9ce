import Glibc

/// The process's limit on open file descriptors (RLIMIT_NOFILE): every client connection is
/// one, so the daemon checks at start that `maxClients` fits.
public enum OpenFileLimit {
    public struct Limits: Sendable, Equatable {
        public var soft: UInt64
        public var hard: UInt64
    }

    public static func current() throws(SystemCallError) -> Limits {
        var limit = rlimit()
        _ = try Syscall.check("getrlimit(RLIMIT_NOFILE)") { getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }
        return Limits(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to `wanted` (at most the hard limit, which only root may raise).
    /// Returns the limits in force afterwards.
    @discardableResult
    public static func raiseSoftLimit(to wanted: UInt64) throws(SystemCallError) -> Limits {
        let now = try current()
        guard now.soft < wanted else { return now }
        var limit = rlimit(rlim_cur: rlim_t(min(wanted, now.hard)), rlim_max: rlim_t(now.hard))
        _ = try Syscall.check("setrlimit(RLIMIT_NOFILE)") { setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }
        return try current()
    }
}
