import FoldcamCore
import FoldcamTestSupport
import Glibc

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

    func waitUntilServingRequests(timeout: Duration = .seconds(60)) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if process.hasExited {
                throw HarnessError("foldcamd exited during start-up (status \(process.waitForExit(timeout: .zero) ?? -1)):\n\(stderr)")
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
    /// Waits until the log has `text` on at least `lines` lines (an event, not a delay).
    func waitForLog(_ text: String, lines: Int = 1, timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if logLines(containing: text) >= lines { return true }
            usleep(10_000)
        }
        return logLines(containing: text) >= lines
    }

    /// How many lines of the log so far contain `text`.
    func logLines(containing text: String) -> Int {
        stderr.split(separator: "\n").count { $0.contains(text) }
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
