import Glibc

/// What a path names, for configuration checks (`foldcamd --check-config`): whether a file the
/// daemon will need later is there and of the right kind, without opening it.
public enum PathKind: Sendable, Equatable {
    case missing
    case directory
    case characterDevice
    case regularFile
    case other
    /// stat failed for another reason than absence (EACCES on a parent, ...).
    case unreadable(Errno)

    public static func of(_ path: String) -> PathKind {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let error = Errno.current
            return error == .noEntry || error == Errno(rawValue: ENOTDIR) ? .missing : .unreadable(error)
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFCHR: return .characterDevice
        case S_IFREG: return .regularFile
        default: return .other
        }
    }

    /// Whether this process may write into `path` (access(2) with W_OK).
    public static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }
}
