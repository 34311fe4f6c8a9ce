import FoldcamClient
import FoldcamCore
import Glibc
import Synchronization

/// A test failure with a message (thrown errors fail the test in Swift Testing).
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body`, failing with `what` if it takes longer than `seconds`. On timeout the body's
/// task is cancelled (the library's sequences end on cancellation, so nothing hangs).
func withTimeout<T: Sendable>(_ seconds: Double, _ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            throw HarnessError("timed out after \(seconds) s: \(what)")
        }
        defer { group.cancelAll() }
        guard let result = try await group.next() else { throw HarnessError("no result: \(what)") }
        return result
    }
}

/// Where the build put the executables: next to the test bundle (the running executable on
/// Linux), or `$FOLDCAM_TEST_BIN_DIR`, or the package's own .build/debug.
enum Executables {
    static func path(of name: String, filePath: String = #filePath) throws -> String {
        var candidates: [String] = []
        if let overridden = getenv("FOLDCAM_TEST_BIN_DIR").map({ String(cString: $0) }), !overridden.isEmpty {
            candidates.append(overridden + "/" + name)
        }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            var directory = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for _ in 0..<4 {  // the bundle may be a directory (…/debug/x.xctest/…)
                guard let slash = directory.lastIndex(of: "/"), slash != directory.startIndex else { break }
                directory = String(directory[..<slash])
                candidates.append(directory + "/" + name)
            }
        }
        if let argument = CommandLine.arguments.first, let slash = argument.lastIndex(of: "/") {
            candidates.append(String(argument[..<slash]) + "/" + name)
        }
        // <package>/Tests/FoldcamClientTests/Support/Harness.swift -> <package>/.build/debug
        var package = filePath
        for _ in 0..<4 { package = String(package[..<(package.lastIndex(of: "/") ?? package.startIndex)]) }
        candidates.append(package + "/.build/debug/" + name)
        for candidate in candidates where access(candidate, X_OK) == 0 { return candidate }
        throw HarnessError("\(name) not found (looked at \(candidates.joined(separator: ", "))); build it first: swift build --build-tests")
    }
}

/// A fresh temporary directory, removed (with the files the tests put there) on deinit.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/foldcam-client.XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        path = String(cString: created)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        if let handle = opendir(path) {
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(handle)
        }
        rmdir(path)
    }
}

func readTextFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
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

/// A child process (posix_spawn): stdin /dev/null, stdout and stderr to files, default signal
/// handling. Killed with SIGKILL on deinit if still running.
final class ChildProcess: Sendable {
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    private let status = Mutex<Int32?>(nil)

    init(executable: String, arguments: [String], stdoutPath: String, stderrPath: String, environment extra: [String: String] = [:]) throws {
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
            // Not systemd's child, and no socket override unless the test sets one.
            if !["NOTIFY_SOCKET=", "LISTEN_", "WATCHDOG_", "FOLDCAM_SOCKET="].contains(where: text.hasPrefix) {
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

    var hasExited: Bool {
        status.withLock { status in
            if status != nil { return true }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status != nil
        }
    }

    /// Waits (polling, without blocking a thread) for the exit; the exit code when it exited
    /// normally, -signal when killed, nil on timeout.
    func exitCode(timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while !hasExited {
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(5))
        }
        let raw = status.withLock { $0 } ?? 0
        return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : -(raw & 0x7F)
    }

    func kill(_ signal: Int32) { Glibc.kill(pid, signal) }

    var stdout: String { readTextFile(stdoutPath) }
    var stderr: String { readTextFile(stderrPath) }
}

/// `foldcamd --simulate --quiet` on a socket in its own temporary directory; can be killed
/// and started again on the same path.
final class SimulatedDaemon: Sendable {
    let directory: TemporaryDirectory
    let socketPath: String
    let rig: String
    private let process = Mutex<ChildProcess?>(nil)
    private let starts = Mutex(0)

    init(rig: String = "duo") async throws {
        directory = try TemporaryDirectory()
        socketPath = directory.file("foldcam.sock")
        self.rig = rig
        try await start()
    }

    /// Starts foldcamd and waits until it answers `hello`.
    func start() async throws {
        let number = starts.withLock { count -> Int in
            count += 1
            return count
        }
        let child = try ChildProcess(
            executable: try Executables.path(of: "foldcamd"), arguments: ["--simulate", "--quiet", "--rig", rig, "--socket", socketPath],
            stdoutPath: directory.file("stdout.\(number)"), stderrPath: directory.file("stderr.\(number)"))
        process.withLock { $0 = child }
        // Generous: CI machines run many test daemons at once on 2 cores.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if child.hasExited { throw HarnessError("foldcamd exited during start-up:\n\(child.stderr)") }
            if let connection = try? FoldcamConnection(path: socketPath) {
                defer { connection.close() }
                if (try? await connection.hello()) != nil { return }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessError("foldcamd did not answer on \(socketPath):\n\(child.stderr)")
    }

    /// SIGKILL: no clean shutdown, the socket file stays behind (stale).
    func killHard() async throws {
        guard let child = process.withLock({ $0 }) else { return }
        child.kill(SIGKILL)
        guard try await child.exitCode(timeout: .seconds(10)) != nil else { throw HarnessError("foldcamd did not die") }
    }

    var stderr: String { process.withLock { $0?.stderr ?? "" } }

    /// One request over a fresh connection.
    func call(_ method: String, _ params: JSONValue = .object([])) async throws -> JSONValue {
        let connection = try FoldcamConnection(path: socketPath)
        defer { connection.close() }
        return try await connection.request(method: method, params: params)
    }

    func setHinge(_ degrees: Double, hinge: String = "fold") async throws {
        _ = try await call("simulate.hinge", .object([("hinge", .string(hinge)), ("angle", .double(degrees))]))
    }
}
