import Glibc

/// Whether a directory the daemon keeps files in (state, metrics, its socket's) is safe along
/// its whole path: no component can be replaced or renamed by anyone but root or the daemon's
/// user. A component is safe when it is owned by root or the daemon's user and nobody else may
/// write to it, or when others may write only under the sticky bit (as /tmp: they cannot move
/// what is not theirs). A symbolic link along the way is followed and its target checked too.
public enum DirectorySafety {
    public struct Verdict: Sendable, Equatable {
        /// Why the daemon must not use the directory (nil: it may).
        public var refusal: String?
        /// What is allowed but weaker than it could be (reported by `--check-config --strict`).
        public var warnings: [String] = []
    }

    /// Checks `path` (absolute or relative to the working directory) for the daemon's user.
    /// `shared`: the last component may be writable by others under the sticky bit, like its
    /// ancestors (a socket's directory: the socket is the one name that matters there, and the
    /// daemon unlinks only the socket it created).
    public static func check(_ path: String, shared: Bool = false) -> Verdict {
        let me = Syscall.effectiveUserID()
        var verdict = Verdict()
        var pending = components(of: path.hasPrefix("/") ? path : (Syscall.workingDirectory() ?? "/") + "/" + path)
        var current = ""
        var links = 0
        func refuse(_ text: String) -> Verdict {
            verdict.refusal = text
            return verdict
        }
        // "/" itself, then each component in turn.
        if let problem = problem(with: "/", me: me, last: pending.isEmpty && !shared) { return refuse(problem) }
        while !pending.isEmpty {
            let name = pending.removeFirst()
            if name == "." { continue }
            if name == ".." {
                current = current.split(separator: "/").dropLast().map { "/" + $0 }.joined()
                continue
            }
            let next = current + "/" + name
            let status: stat
            do { status = try Syscall.linkStatus(next) } catch { return refuse("cannot inspect \(next): \(error.errno)") }
            if status.st_mode & S_IFMT == S_IFLNK {
                links += 1
                guard links <= 40, let target = Syscall.linkTarget(next) else { return refuse("\(next) is a symbolic link that cannot be followed") }
                // The link is as safe as the directory holding it, checked already.
                pending = components(of: target) + pending
                if target.hasPrefix("/") { current = "" }
                continue
            }
            guard status.st_mode & S_IFMT == S_IFDIR else { return refuse("\(next) is not a directory") }
            if let problem = problem(with: next, status: status, me: me, last: pending.isEmpty && !shared) { return refuse(problem) }
            if pending.isEmpty && !shared && status.st_mode & 0o020 != 0 {
                verdict.warnings.append("\(next) is writable by its group (gid \(status.st_gid), mode \(octal(status.st_mode))): the group's members could replace the daemon's files in it; chmod g-w \(next)")
            }
            current = next
        }
        return verdict
    }

    private static func problem(with path: String, me: UInt32, last: Bool) -> String? {
        guard let status = try? Syscall.linkStatus(path) else { return "cannot inspect \(path)" }
        return problem(with: path, status: status, me: me, last: last)
    }

    /// Why this component makes the path unsafe, or nil.
    private static func problem(with path: String, status: stat, me: UInt32, last: Bool) -> String? {
        if status.st_uid != 0 && status.st_uid != me {
            return "\(path) belongs to uid \(status.st_uid), who could replace what is below it; use a directory whose every component belongs to root or the daemon's user (uid \(me))"
        }
        let othersWrite = status.st_mode & 0o002 != 0
        let groupWrite = status.st_mode & 0o020 != 0
        if last && othersWrite {
            return "\(path) is writable by every user (mode \(octal(status.st_mode))), who could replace the daemon's files in it; chmod o-w \(path)"
        }
        if !last && (othersWrite || (groupWrite && status.st_gid != 0)) && status.st_mode & S_ISVTX == 0 {
            return "\(path) is writable by \(othersWrite ? "every user" : "group \(status.st_gid)") without the sticky bit (mode \(octal(status.st_mode))), so they could move what is below it aside; chmod \(othersWrite ? "o" : "g")-w \(path)"
        }
        return nil
    }

    static func components(of path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    static func octal(_ mode: mode_t) -> String { String(mode & 0o7777, radix: 8) }
}
