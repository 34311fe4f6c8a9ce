import Glibc

/// Questions about a path that open nothing.
public enum PathStatus {
    /// Whether something exists at `path` (a dangling symbolic link does not count).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
