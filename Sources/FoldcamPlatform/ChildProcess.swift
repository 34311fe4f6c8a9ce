import Glibc

/// Runs a helper program and collects its standard output (`foldcamctl report` asks `pw-dump`
/// for PipeWire's camera nodes). Standard input and error go to /dev/null; the child's
/// environment is ours; output beyond `limit` bytes is read and dropped so the child never
/// blocks on a full pipe.
package enum ChildProcess {
    package struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        package var status: Int32
        package var output: [UInt8]
    }

    package static func output(of path: String, _ arguments: [String], limit: Int) throws(SystemCallError) -> Outcome {
        var fds: [Int32] = [-1, -1]
        _ = try Syscall.check("pipe") { pipe(&fds) }
        // Close-on-exec for both ends: the child gets the write end only as its stdout (dup2).
        for fd in fds { _ = try Syscall.check("fcntl") { fcntl(fd, F_SETFD, FD_CLOEXEC) } }
        defer { if fds[0] >= 0 { Syscall.close(fds[0]) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        Syscall.close(fds[1])
        guard spawned == 0 else { throw SystemCallError("posix_spawn \(path)", Errno(rawValue: spawned)) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var count = 0
            var failure: SystemCallError?
            chunk.withUnsafeMutableBytes { buffer in
                do throws(SystemCallError) { count = try Syscall.read(fds[0], into: buffer, subject: path) } catch { failure = error }
            }
            if let failure { throw failure }
            if count == 0 { break }
            if output.count < limit { output += chunk.prefix(min(count, limit - output.count)) }
        }
        var status: Int32 = 0
        _ = try Syscall.check("waitpid") { waitpid(pid, &status, 0) }
        let exited = status & 0x7f == 0
        return Outcome(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output: output)
    }
}
