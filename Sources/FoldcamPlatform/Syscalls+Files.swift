import Glibc

/// The calls behind `SafeFile` and `DirectorySafety`: files opened relative to a directory
/// descriptor, never following a symbolic link at the last component, and what fstat/lstat say.
extension Syscall {
    package static func openAt(_ directory: Int32, _ name: String, _ flags: Int32, mode: mode_t = 0, subject: String) throws(SystemCallError) -> Int32 {
        try check("open", subject: subject) { Glibc.openat(directory, name, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, mode) }
    }

    package static func fileStatus(_ fd: Int32, subject: String) throws(SystemCallError) -> stat {
        var status = stat()
        _ = try check("fstat", subject: subject) { fstat(fd, &status) }
        return status
    }

    /// lstat: what the name itself is (a symbolic link is reported as one, not followed).
    package static func linkStatus(_ path: String) throws(SystemCallError) -> stat {
        var status = stat()
        _ = try check("lstat", subject: path) { lstat(path, &status) }
        return status
    }

    package static func renameAt(_ directory: Int32, _ from: String, _ to: String, subject: String) throws(SystemCallError) {
        _ = try check("rename \(from) to \(to)", subject: subject) { Glibc.renameat(directory, from, directory, to) }
    }

    package static func unlinkAt(_ directory: Int32, _ name: String) {
        _ = Glibc.unlinkat(directory, name, 0)
    }

    package static func sync(_ fd: Int32, subject: String) throws(SystemCallError) {
        _ = try check("fsync", subject: subject) { fsync(fd) }
    }

    package static func changeMode(_ fd: Int32, _ mode: mode_t, subject: String) throws(SystemCallError) {
        _ = try check("fchmod", subject: subject) { fchmod(fd, mode) }
    }

    /// mkdir: one directory, its parent must exist (EEXIST when the name is taken).
    package static func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallError) {
        _ = try check("mkdir", subject: path) { mkdir(path, mode) }
    }

    package static func effectiveUserID() -> UInt32 { geteuid() }

    /// A symbolic link's target (nil when `path` is not one or cannot be read).
    package static func linkTarget(_ path: String) -> String? { readLink(path) }

    package static func workingDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
