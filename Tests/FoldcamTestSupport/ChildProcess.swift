import Glibc
import Synchronization

/// A child process started with posix_spawn: stdin from /dev/null, stdout and stderr to files,
/// default signal dispositions and an empty signal mask whatever the test runner's are, and an
/// environment without systemd's variables, a socket override or deterministic hashing (unless
/// given in `extra`).
/// Killed with SIGKILL on deinit if still running.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let stdoutPath: String
    public let stderrPath: String
    private let status = Mutex<Int32?>(nil)

    public init(executable: String, arguments: [String], stdoutPath: String, stderrPath: String, environment extra: [String: String] = [:]) throws {
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            // The child must not believe systemd started it, and hashes with a seed of its own
            // as in production (CrossProcessDeterminismTests relies on it).
            if !["NOTIFY_SOCKET=", "LISTEN_", "WATCHDOG_", "FOLDCAM_SOCKET=", "SWIFT_DETERMINISTIC_HASHING="].contains(where: text.hasPrefix) {
                environment.append(strdup(entry))
            }
            index += 1
        }
        for (key, value) in extra { environment.append(strdup("\(key)=\(value)")) }
        environment.append(nil)
        defer { for pointer in environment { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environment)
        guard result == 0 else { throw HarnessError("posix_spawn \(executable): \(String(cString: strerror(result)))") }
        pid = child
    }

    deinit {
        if !hasExited {
            Glibc.kill(pid, SIGKILL)
            var raw: Int32 = 0
            _ = waitpid(pid, &raw, 0)
        }
    }

    /// Non-blocking: true once the process has exited (and was reaped).
    public var hasExited: Bool {
        status.withLock { status in
            if status != nil { return true }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status != nil
        }
    }

    /// The raw wait status once the process exits (polling), or nil on timeout.
    public func waitForExit(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while !hasExited {
            if ContinuousClock.now >= deadline { return nil }
            usleep(5_000)
        }
        return status.withLock { $0 }
    }

    /// The exit code when it exited normally; nil when killed by a signal or still running.
    public func exitCode(timeout: Duration) -> Int32? {
        guard let raw = waitForExit(timeout: timeout) else { return nil }
        // WIFEXITED / WEXITSTATUS are macros; these are their glibc definitions.
        return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : nil
    }

    /// Waits without blocking a thread: the exit code when it exited normally, −signal when
    /// killed, nil on timeout.
    public func waitForExitCode(timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while !hasExited {
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(5))
        }
        let raw = status.withLock { $0 } ?? 0
        return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : -(raw & 0x7F)
    }

    /// How it ended, for failure messages ("exit code 1", "signal 6"); nil while it runs.
    public var endDescription: String? {
        guard hasExited, let raw = status.withLock({ $0 }) else { return nil }
        return raw & 0x7F == 0 ? "exit code \((raw >> 8) & 0xFF)" : "signal \(raw & 0x7F)"
    }

    public func kill(_ signal: Int32) { Glibc.kill(pid, signal) }

    public var stdout: String { readTextFile(stdoutPath) }
    public var stderr: String { readTextFile(stderrPath) }
}
