import FoldcamClient
import FoldcamCore
import Glibc
import FoldcamTestSupport
import Synchronization

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

/// `foldcamd --simulate --quiet` on a socket in its own temporary directory; can be killed
/// and started again on the same path.
final class SimulatedDaemon: Sendable {
    let directory: TemporaryDirectory
    let socketPath: String
    let rig: String
    private let process = Mutex<ChildProcess?>(nil)
    private let starts = Mutex(0)
    /// Set by `killHard`: a daemon the test killed did not die by itself.
    private let killedByTest = Mutex(false)

    /// `started: false` only reserves the socket path (a client can wait for it); call `start()`.
    init(rig: String = "duo", started: Bool = true) async throws {
        directory = try TemporaryDirectory()
        socketPath = directory.file("foldcam.sock")
        self.rig = rig
        if started { try await start() }
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
        killedByTest.withLock { $0 = false }
        // Generous: CI machines run many test daemons at once on 2 cores, and under
        // ThreadSanitizer (scripts/test-sanitizers) everything is 5-15x slower; the wait ends
        // as soon as the daemon answers.
        let deadline = ContinuousClock.now + .seconds(300)
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
        killedByTest.withLock { $0 = true }
        child.kill(SIGKILL)
        guard try await child.waitForExitCode(timeout: .seconds(10)) != nil else { throw HarnessError("foldcamd did not die") }
    }

    var stderr: String { process.withLock { $0?.stderr ?? "" } }

    /// A daemon that died by itself (a crash ends every client's connection, which a test
    /// reports only as "the daemon closed the connection") says how and why in the test log.
    deinit {
        guard let child = process.withLock({ $0 }), !killedByTest.withLock({ $0 }), let end = child.endDescription else { return }
        let report = Array("foldcamd --simulate on \(socketPath) died by itself (\(end)); its stderr:\n\(child.stderr)\n".utf8)
        _ = report.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

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
