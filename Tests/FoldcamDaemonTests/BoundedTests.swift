import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// Every input costs bounded time and memory: clients that do not read, pipelined snapshots,
/// descriptor limits, connect floods, a frozen first daemon.
@Suite("foldcamd stays bounded", .serialized)
struct BoundedTests {
    /// Sends `state` requests without reading until the daemon stops taking them (the socket
    /// fills because the daemon stopped reading); returns how many were sent whole.
    static func pipelineUntilRefused(_ client: TestClient, limit: Int = 200_000) -> Int {
        let line = Array(#"{"id": 1, "method": "state"}"#.utf8) + [UInt8(ascii: "\n")]
        var sent = 0
        // Batches of 64 requests; a batch that cannot be written within 1 s means the daemon
        // has stopped reading (it answers a reading client in microseconds). Stopping early on a
        // loaded machine only makes the test send less, never pass wrongly.
        let batch = Array([[UInt8]](repeating: line, count: 64).joined())
        while sent < limit {
            guard client.sendBytes(batch, timeout: .seconds(1)) else { break }
            sent += 64
        }
        return sent
    }

    @Test("clients that pipeline requests and never read make the daemon stop reading them: memory stays bounded, others are served, nothing is lost")
    func nonReadersAreBackpressured() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "clientStuckSeconds": 600}"#)
        let other = try daemon.connect()
        _ = try other.result("hello")
        let residentBefore = try daemon.residentKiB()
        var pipelining: [(TestClient, Int)] = []
        for _ in 0..<8 {
            let client = try daemon.connect()
            let sent = Self.pipelineUntilRefused(client)
            #expect(sent < 200_000, "the daemon kept reading a client that reads nothing")
            pipelining.append((client, sent))
        }
        let grownKiB = try daemon.residentKiB() - residentBefore
        print("8 non-reading clients: daemon RSS grew by \(grownKiB) KiB; requests taken: \(pipelining.map(\.1))")
        // Each may hold 1 MiB of replies plus the reply that crossed the bound; without
        // backpressure each held tens of megabytes.
        #expect(grownKiB < 32 * 1024, "RSS grew by \(grownKiB) KiB")
        #expect(try other.result("directions", .params(("display", .string("inner"))))["display"] == .string("inner"))

        // The first one now reads: it gets a reply to every request it managed to send.
        let (reader, sent) = pipelining[0]
        var answered = 0
        while answered < sent {
            guard let line = reader.readLine(timeout: .seconds(30)) else { break }
            if (try? JSONParser.parse(line))?["result"] != nil { answered += 1 }
        }
        #expect(answered == sent, "answered \(answered) of \(sent)")
    }

    @Test("directions replies sent straight from the published encoding arrive whole, in order, with their ids, when the socket fills and a write is cut short")
    func directReplyWritesCutShort() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "clientStuckSeconds": 600}"#)
        let client = try daemon.connect()
        let expected = try client.result("directions")
        // ~1 KB replies, 2,000 of them: far more than the socket buffer holds, so with the
        // client not reading, direct writes are cut short and the rest waits in the output;
        // ids from 1,000,000 down to negatives exercise the head's digits and sign.
        let count = 2_000
        var batch: [UInt8] = []
        for index in 0..<count { batch += Array(#"{"id":\#(1_000_000 - index * 700),"method":"directions"}"#.utf8) + [10] }
        #expect(client.sendBytes(batch, timeout: .seconds(30)))
        for index in 0..<count {
            let line = try #require(client.readLine(timeout: .seconds(30)), "reply \(index) of \(count) never came")
            let reply = try JSONParser.parse(line)
            #expect(reply["id"] == .int(1_000_000 - index * 700), "reply \(index) out of order")
            #expect(reply["result"] == expected, "reply \(index) differs from the first")
            if reply["id"] != .int(1_000_000 - index * 700) || reply["result"] != expected { break }
        }
    }

    @Test("snapshots: at most 2 per client in progress, the rest get busy at once; a client that leaves costs nothing more; others are answered")
    func snapshotQueueIsBounded() throws {
        let daemon = try RunningDaemon()
        let greedy = try daemon.connect()
        let count = 100
        let requests = (1...count).map { #"{"id": \#($0), "method": "snapshot"}"# }.joined(separator: "\n") + "\n"
        #expect(greedy.sendBytes(Array(requests.utf8)))
        var results = 0
        var busy = 0
        for _ in 0..<count {
            let reply = try greedy.readMessage(timeout: .seconds(60))
            if reply[path: "result", "png"] != nil { results += 1 }
            if reply[path: "error", "code"] == .string("busy") { busy += 1 }
        }
        #expect(results + busy == count, "every request answered: \(results) frames, \(busy) busy")
        #expect(results >= 1 && busy >= count - 10, "\(results) frames, \(busy) busy")

        // 100 more, then gone: the next client's snapshot is not stuck behind them.
        let leaver = try daemon.connect()
        #expect(leaver.sendBytes(Array(requests.utf8)))
        leaver.close()
        let patient = try daemon.connect()
        let started = ContinuousClock.now
        let reply = try patient.call("snapshot", nil, timeout: .seconds(30))
        print("snapshot after a client left with 100 pipelined: answered in \(ContinuousClock.now - started)")
        #expect(reply[path: "result", "png"] != nil || reply[path: "error", "code"] == .string("busy"), "\(reply)")
        // Busy is temporary: within the deadline a frame comes.
        var got = reply[path: "result", "png"] != nil
        let deadline = ContinuousClock.now + .seconds(30)
        while !got && ContinuousClock.now < deadline {
            got = try patient.call("snapshot")[path: "result", "png"] != nil
        }
        #expect(got)
    }

    @Test("SIGTERM answers every request still in progress before the connection closes")
    func sigtermAnswersPendingRequests() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        _ = try client.result("hello")
        #expect(client.sendBytes(Array((#"{"id": 7, "method": "snapshot"}"# + "\n" + #"{"id": 8, "method": "snapshot"}"# + "\n").utf8)))
        daemon.signal(SIGTERM)
        var answered: Set<Int> = []
        while let line = client.readLine(timeout: .seconds(30)) {
            let reply = try JSONParser.parse(line)
            if case let .int(id)? = reply["id"] {
                #expect(reply["result"] != nil || reply[path: "error", "code"] == .string("stopped"), "\(reply)")
                answered.insert(id)
            }
        }
        #expect(answered == [7, 8], "answered before closing: \(answered)")
        #expect(daemon.process.exitCode(timeout: .seconds(30)) == 0)
    }

    @Test("the soft descriptor limit is raised to what maxClients needs; a hard limit below it refuses the configuration, saying so")
    func descriptorLimit() throws {
        let directory = try TemporaryDirectory()
        try directory.write("foldcam.json", #"{"rig": "duo", "maxClients": 256}"#)
        let refused = try ChildProcess(
            executable: "/usr/bin/prlimit",
            arguments: ["--nofile=64:64", "--", try Executables.path(of: "foldcamd"), "--simulate", "--quiet", "--config", directory.file("foldcam.json"), "--socket", directory.file("refused.sock")],
            stdoutPath: directory.file("refused.out"), stderrPath: directory.file("refused.err"))
        #expect(refused.exitCode(timeout: .seconds(30)) == 1)
        #expect(refused.stderr.contains("maxClients 256 needs 320 file descriptors") && refused.stderr.contains("LimitNOFILE"), "\(refused.stderr)")
        // 64 descriptors are all the daemon needs besides its clients: no maxClients would fit.
        #expect(refused.stderr.contains("raise LimitNOFILE= in the service to at least 320") && !refused.stderr.contains("at most 0"), "\(refused.stderr)")
        let fewer = try ChildProcess(
            executable: "/usr/bin/prlimit",
            arguments: ["--nofile=100:100", "--", try Executables.path(of: "foldcamd"), "--simulate", "--quiet", "--config", directory.file("foldcam.json"), "--socket", directory.file("fewer.sock")],
            stdoutPath: directory.file("fewer.out"), stderrPath: directory.file("fewer.err"))
        #expect(fewer.exitCode(timeout: .seconds(30)) == 1)
        #expect(fewer.stderr.contains("lower maxClients to at most 36"), "\(fewer.stderr)")

        let raised = try ChildProcess(
            executable: "/usr/bin/prlimit",
            arguments: ["--nofile=64:4096", "--", try Executables.path(of: "foldcamd"), "--simulate", "--quiet", "--config", directory.file("foldcam.json"), "--socket", directory.file("raised.sock")],
            stdoutPath: directory.file("raised.out"), stderrPath: directory.file("raised.err"))
        defer { raised.kill(SIGTERM); _ = raised.waitForExit(timeout: .seconds(10)) }
        let deadline = ContinuousClock.now + .seconds(30)
        var soft: Int?
        while soft == nil && ContinuousClock.now < deadline && !raised.hasExited {
            if (try? TestClient(path: directory.file("raised.sock"))) != nil {
                let limits = readTextFile("/proc/\(raised.pid)/limits")
                soft = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }
                    .flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first }.flatMap { Int($0) }
            } else {
                usleep(20_000)
            }
        }
        #expect(soft.map { $0 >= 320 } == true, "soft limit \(soft.map(String.init) ?? "?"): \(raised.stderr)")
    }

    @Test("peers that connected and left while the daemon was busy do not hold slots a live client needs")
    func departedPeersFreeTheirSlots() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "maxClients": 16}"#)
        // Frozen, the daemon accepts nothing: the flood and the live client wait in the backlog
        // together, and the daemon meets them in one batch.
        daemon.signal(SIGSTOP)
        for _ in 0..<60 { try daemon.connect().close() }
        let live = try daemon.connect()
        live.sendRequest("hello")
        daemon.signal(SIGCONT)
        let reply = try live.readMessage(timeout: .seconds(30))
        #expect(reply[path: "result", "rig"] == .string("duo"), "the live client was refused: \(reply)")
    }

    @Test("a second daemon does not wait on a first one that is frozen with a full backlog")
    func secondDaemonDoesNotWait() throws {
        let first = try RunningDaemon()
        first.signal(SIGSTOP)
        defer { first.signal(SIGCONT) }
        // Fill the frozen daemon's backlog until a non-blocking connect says EAGAIN.
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        var full = false
        for _ in 0..<1000 where !full {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(first.socketPath.utf8) + [0]) }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if result != 0 && errno == EAGAIN { full = true; close(fd) } else { held.append(fd) }
        }
        try #require(full, "could not fill the backlog")
        let second = try ChildProcess(
            executable: try Executables.path(of: "foldcamd"), arguments: ["--simulate", "--quiet", "--socket", first.socketPath],
            stdoutPath: first.directory.file("second.out"), stderrPath: first.directory.file("second.err"))
        let code = second.exitCode(timeout: .seconds(30))
        if code == nil { second.kill(SIGKILL) }
        #expect(code == 1, "the second daemon hung (or did not refuse): \(second.stderr)")
        #expect(second.stderr.contains("another process is listening"), "\(second.stderr)")
    }
}
