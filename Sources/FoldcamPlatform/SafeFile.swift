import Glibc

/// Files the daemon keeps in its own directories (state, metrics): opened so that nothing
/// another user put there can block it, redirect it or be taken for the daemon's own.
///
/// - Every open is relative to the directory, with O_NOFOLLOW|O_NONBLOCK: a symbolic link is
///   refused, a FIFO or device cannot block the caller.
/// - A file read must be a regular file owned by the daemon's user with one link (a hard link
///   from elsewhere, or a file another user wrote, is not the daemon's).
/// - A file written is created with O_EXCL under an unpredictable name, then renamed over the
///   old one: nobody can have put anything at that name first.
///
/// Callers check the directory itself with `DirectorySafety` first.
public enum SafeFile {
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        case missing
        case failed(SystemCallError)
        /// Not a file the daemon may trust: why.
        case untrusted(String)
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .missing: "does not exist"
            case let .failed(error): "cannot be read (\(error))"
            case let .untrusted(why): why
            case let .tooLarge(limit): "is over \(limit / 1024) KiB"
            }
        }
    }

    /// The bytes of `directory/name`, at most `limit` of them.
    public static func read(directory: String, name: String, limit: Int) throws(ReadError) -> [UInt8] {
        let path = "\(directory)/\(name)"
        let folder: FileDescriptor
        do { folder = try openDirectory(directory) } catch { throw .failed(error) }
        let file: FileDescriptor
        do {
            file = FileDescriptor(owning: try Syscall.openAt(folder.rawValue, name, O_RDONLY, subject: path), subject: path)
        } catch {
            if error.errno == .noEntry { throw .missing }
            if error.errno == Errno(rawValue: ELOOP) { throw .untrusted("is a symbolic link") }
            throw .failed(error)
        }
        let status: stat
        do { status = try Syscall.fileStatus(file.rawValue, subject: path) } catch { throw .failed(error) }
        if let why = distrust(status) { throw .untrusted(why) }
        do { return try file.readToEnd(limit: limit) } catch {
            switch error {
            case let .failed(failure): throw .failed(failure)
            case let .tooLarge(limit): throw .tooLarge(limit: limit)
            }
        }
    }

    /// Why a file with this status is not the daemon's, or nil.
    static func distrust(_ status: stat) -> String? {
        let me = Syscall.effectiveUserID()
        if status.st_mode & S_IFMT != S_IFREG { return "is not a regular file" }
        if status.st_uid != me { return "belongs to uid \(status.st_uid), not to the daemon's user (uid \(me))" }
        if status.st_nlink != 1 { return "has \(status.st_nlink) links (a file the daemon writes has one)" }
        return nil
    }

    /// Replaces `directory/name` atomically: a new file under an unpredictable name (O_EXCL),
    /// given `mode` whatever the umask, renamed over the old one, so a reader sees the old file
    /// or the new one, never half of one. `durable` also flushes the file and then the
    /// directory to the disk, so the new file is what a power cut leaves.
    public static func replace(_ bytes: [UInt8], directory: String, name: String, mode: mode_t = 0o644, durable: Bool = false) throws(SystemCallError) {
        let folder = try openDirectory(directory)
        var attempts = 0
        while true {
            let temporary = ".\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
            let subject = "\(directory)/\(temporary)"
            let fd: Int32
            do {
                fd = try Syscall.openAt(folder.rawValue, temporary, O_WRONLY | O_CREAT | O_EXCL, mode: mode & 0o600, subject: subject)
            } catch {
                // Someone guessed the name (2^64 to one): another one.
                attempts += 1
                if error.errno == Errno(rawValue: EEXIST) && attempts < 8 { continue }
                throw error
            }
            let file = FileDescriptor(owning: fd, subject: subject)
            do throws(SystemCallError) {
                try Syscall.changeMode(file.rawValue, mode, subject: subject)
                try bytes.withBytes { raw throws(SystemCallError) in try file.writeAll(raw) }
                if durable { try Syscall.sync(file.rawValue, subject: subject) }
                file.close()
                try Syscall.renameAt(folder.rawValue, temporary, name, subject: directory)
                if durable { try Syscall.sync(folder.rawValue, subject: directory) }
                return
            } catch {
                file.close()
                Syscall.unlinkAt(folder.rawValue, temporary)
                throw error
            }
        }
    }

    /// Renames `directory/name` to `name` + `suffix` (replacing an older one), whatever it is
    /// (a FIFO or a link included: renaming opens nothing).
    public static func setAside(directory: String, name: String, suffix: String) throws(SystemCallError) {
        let folder = try openDirectory(directory)
        try Syscall.renameAt(folder.rawValue, name, name + suffix, subject: directory)
    }

    /// The directory itself, never through a symbolic link at its last component.
    static func openDirectory(_ directory: String) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(owning: try Syscall.open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK), subject: directory)
    }
}
