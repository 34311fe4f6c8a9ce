import Glibc

/// Runs another program to completion (a compositor's own tool: `swaymsg`, `kscreen-doctor`,
/// `gdbus`, ...) and returns its exit status and what it printed (stdout and stderr together,
/// bounded). The program is found on PATH; stdin is /dev/null.
public enum ToolProcess {
    public struct Result: Sendable, Equatable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        public var output: String
        public var succeeded: Bool { status == 0 }
    }

    public enum Failure: Error, CustomStringConvertible {
        case cannotStart(String, Errno)
        public var description: String {
            switch self {
            case let .cannotStart(program, error): return "cannot run \(program): \(error)"
            }
        }
    }

    /// At most this much output is kept (a tool's reply is a line or a small JSON document).
    public static let outputLimit = 64 * 1024

    public static func run(_ argv: [String]) throws(Failure) -> Result {
        precondition(!argv.isEmpty, "ToolProcess.run needs a program")
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .cannotStart(argv[0], .current) }
        // Neither end may leak into other children (the child gets the write end as 1 and 2).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var child: pid_t = 0
        let started = posix_spawnp(&child, argv[0], &actions, nil, cArguments, environ)
        Syscall.close(fds[1])
        let reader = FileDescriptor(owning: fds[0])
        defer { reader.close() }
        guard started == 0 else { throw .cannotStart(argv[0], Errno(rawValue: started)) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = (try? buffer.withUnsafeMutableBytes { try reader.read(into: $0) }) ?? 0
            if count <= 0 { break }
            if bytes.count < outputLimit { bytes += buffer[0..<min(count, outputLimit - bytes.count)] }
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: code, output: String(decoding: bytes, as: UTF8.self))
    }
}
