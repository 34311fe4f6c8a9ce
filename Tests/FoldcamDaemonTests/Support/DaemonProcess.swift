import FoldcamCore
import Glibc

/// A temporary directory (mode 0755, so a client running as another user can reach the
/// socket inside), removed with its contents on deinit.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/foldcamd-test.XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        path = String(cString: created)
        chmod(path, 0o755)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ name: String, _ text: String) throws {
        let target = file(name)
        let temporary = target + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw HarnessError("open \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        Glibc.close(fd)
        guard written == bytes.count else { throw HarnessError("write \(temporary) failed") }
        // Atomic replacement, as an administrator's editor would do it.
        guard rename(temporary, target) == 0 else { throw HarnessError("rename \(target): \(String(cString: strerror(errno)))") }
    }

    deinit {
        var stack = [path]
        var directories: [String] = []
        while let directory = stack.popLast() {
            directories.append(directory)
            guard let handle = opendir(directory) else { continue }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                let child = directory + "/" + name
                if Int32(entry.pointee.d_type) == Int32(DT_DIR) { stack.append(child) } else { unlink(child) }
            }
            closedir(handle)
        }
        for directory in directories.reversed() { rmdir(directory) }
    }
}

/// Reads a whole file as text ("" when missing).
func readTextFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { Glibc.close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

func pathExists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
}

/// A child process started with posix_spawn: stdin from /dev/null, stdout and stderr to files,
/// default signal dispositions and an empty signal mask whatever the test runner's are.
final class ChildProcess {
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    private(set) var exitStatus: Int32?

    init(executable: String, arguments: [String], stdoutPath: String, stderrPath: String) throws {
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
            // The daemon must not believe systemd started it.
            if !text.hasPrefix("NOTIFY_SOCKET=") && !text.hasPrefix("LISTEN_") && !text.hasPrefix("WATCHDOG_") && !text.hasPrefix("FOLDCAM_SOCKET=") {
                environment.append(strdup(entry))
            }
            index += 1
        }
        environment.append(nil)
        defer { for pointer in environment { free(pointer) } }

        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environment)
        guard result == 0 else { throw HarnessError("posix_spawn \(executable): \(String(cString: strerror(result)))") }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: .seconds(5))
        }
    }

    /// Non-blocking check: true once the process has exited (and was reaped).
    var hasExited: Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid { exitStatus = status }
        return exitStatus != nil
    }

    /// The raw wait status once the process exits, or nil on timeout.
    func waitForExit(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while !hasExited {
            if ContinuousClock.now >= deadline { return nil }
            usleep(5_000)
        }
        return exitStatus
    }

    /// The exit code when it exited normally; nil when killed by a signal or still running.
    func exitCode(timeout: Duration) -> Int32? {
        guard let status = waitForExit(timeout: timeout) else { return nil }
        // WIFEXITED / WEXITSTATUS are macros; these are their glibc definitions.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
    }

    var stdout: String { readTextFile(stdoutPath) }
    var stderr: String { readTextFile(stderrPath) }
}

/// Where the build put `foldcamd`: next to the test bundle (the running executable on Linux).
enum Executables {
    static func path(of name: String) throws -> String {
        if let overridden = getenv("FOLDCAMD_TEST_DIR").map({ String(cString: $0) }), !overridden.isEmpty {
            let candidate = overridden + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        var candidates: [String] = []
        // /proc/self/exe is the test bundle (foldcamPackageTests.xctest) or the runner that loaded it.
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            var directory = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // Walk up a few levels: the bundle may be a directory (…/debug/x.xctest/…).
            for _ in 0..<4 {
                guard let slash = directory.lastIndex(of: "/"), slash != directory.startIndex else { break }
                directory = String(directory[..<slash])
                candidates.append(directory + "/" + name)
            }
        }
        if let argument = CommandLine.arguments.first, let slash = argument.lastIndex(of: "/") {
            candidates.append(String(argument[..<slash]) + "/" + name)
        }
        for candidate in candidates where access(candidate, X_OK) == 0 { return candidate }
        throw HarnessError("\(name) not found next to the test bundle (looked at \(candidates.joined(separator: ", "))); build it first: swift build --build-tests")
    }
}

/// A `foldcamd --simulate` process serving a socket in its own temporary directory.
final class RunningDaemon {
    let directory: TemporaryDirectory
    let socketPath: String
    let process: ChildProcess
    static let configName = "foldcam.json"

    /// Starts the daemon and waits until its socket answers `hello`.
    /// `config` is written to the directory and passed with `--config`.
    init(config: String? = nil, arguments: [String] = [], directory: TemporaryDirectory? = nil, waitUntilServing: Bool = true) throws {
        self.directory = try directory ?? TemporaryDirectory()
        socketPath = self.directory.file("foldcam.sock")
        var argv = ["--simulate", "--quiet", "--socket", socketPath]
        if let config {
            try self.directory.write(Self.configName, config)
            argv += ["--config", self.directory.file(Self.configName)]
        }
        argv += arguments
        let logNumber = UInt32.random(in: 0...UInt32.max)
        process = try ChildProcess(
            executable: try Executables.path(of: "foldcamd"), arguments: argv,
            stdoutPath: self.directory.file("stdout.\(logNumber)"), stderrPath: self.directory.file("stderr.\(logNumber)"))
        if waitUntilServing { try waitUntilServingRequests() }
    }

    var pid: pid_t { process.pid }
    var stderr: String { process.stderr }

    func waitUntilServingRequests(timeout: Duration = .seconds(20)) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if process.hasExited {
                throw HarnessError("foldcamd exited during start-up (status \(process.exitStatus ?? -1)):\n\(stderr)")
            }
            if let client = try? TestClient(path: socketPath), (try? client.result("hello")) != nil { return }
            usleep(10_000)
        }
        throw HarnessError("foldcamd did not answer on \(socketPath) within \(timeout):\n\(stderr)")
    }

    func connect() throws -> TestClient { try TestClient(path: socketPath) }

    func signal(_ number: Int32) { kill(process.pid, number) }

    /// Waits until stderr contains `text`.
    @discardableResult
    func waitForLog(_ text: String, timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if stderr.contains(text) { return true }
            usleep(10_000)
        }
        return stderr.contains(text)
    }

    /// Resident memory from /proc/PID/status, in KiB.
    func residentKiB() throws -> Int {
        try Self.statusField("VmRSS", pid: process.pid)
    }

    static func statusField(_ name: String, pid: pid_t) throws -> Int {
        let text = readTextFile("/proc/\(pid)/status")
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            if let value = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap({ Int($0) }) { return value }
        }
        throw HarnessError("no \(name) in /proc/\(pid)/status")
    }

    /// SIGTERM and wait; the exit code (nil if it did not exit normally in time).
    @discardableResult
    func stop(timeout: Duration = .seconds(10)) -> Int32? {
        signal(SIGTERM)
        return process.exitCode(timeout: timeout)
    }
}
