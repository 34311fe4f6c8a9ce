import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// Signals and the socket file: SIGHUP reloads (or keeps the old config), SIGTERM stops
/// cleanly, stale sockets are replaced and live ones are not stolen.
@Suite("foldcamd signals and socket lifecycle")
struct LifecycleTests {
    @Test("SIGHUP with a broken config is rejected and logged; the old rig keeps serving; a valid change reloads without dropping subscribers")
    func reload() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "logLevel": "info"}"#)
        let subscriber = try daemon.connect()
        _ = try subscriber.result("subscribe", .params(("topics", .array([.string("directions"), .string("posture")]))))
        for _ in 0..<2 { _ = try subscriber.nextEvent() }
        _ = try subscriber.result("simulate.hinge", .params(("hinge", .string("fold")), ("angle", .double(100))))
        subscriber.pendingEvents.removeAll()

        // 1. Invalid JSON.
        try daemon.directory.write(RunningDaemon.configName, #"{"rig": "duo", "#)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog("reload rejected"), "stderr:\n\(daemon.stderr)")
        let rejection = daemon.stderr.split(separator: "\n").first { $0.contains("reload rejected") }
        #expect(rejection?.hasPrefix("<3>") == true, "logged as an error: \(rejection ?? "none")")
        // 2. Valid JSON naming a rig that does not exist, and a value out of range.
        try daemon.directory.write(RunningDaemon.configName, #"{"rig": "no-such-rig", "maxClients": 0}"#)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog("maxClients"), "the second rejection names the bad member; stderr:\n\(daemon.stderr)")
        #expect(daemon.stderr.split(separator: "\n").filter { $0.contains("reload rejected") }.count == 2)

        // The old configuration keeps serving, with the state it had, on the same connection.
        let hello = try subscriber.result("hello")
        #expect(hello["rig"] == .string("duo"))
        #expect(try subscriber.result("state")[path: "hinges", "fold"]?.numberValue == 100)
        #expect(subscriber.pendingEvents.isEmpty, "a rejected reload publishes nothing")
        #expect(try daemon.connect().result("hello")["rig"] == .string("duo"))

        // 3. A valid change: the kiosk rig. The subscriber stays and gets the new rig's values.
        try daemon.directory.write(RunningDaemon.configName, #"{"rig": "kiosk"}"#)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog("reloaded: rig kiosk"), "stderr:\n\(daemon.stderr)")
        var directions: JSONValue?
        var posture: JSONValue?
        let deadline = ContinuousClock.now + .seconds(10)
        while (directions == nil || posture == nil) && ContinuousClock.now < deadline {
            let event = try subscriber.nextEvent()
            if event["event"] == .string("directions") { directions = event["data"] }
            if event["event"] == .string("posture") { posture = event["data"] }
        }
        guard case let .object(displays)? = directions?["displays"] else { throw HarnessError("no directions event after the reload") }
        #expect(displays.map(\.0) == ["front", "rear"])
        #expect(directions?["viewedDisplay"]?.stringValue.map { ["front", "rear"].contains($0) } == true)
        #expect(posture?["hinges"] == .object([]))
        #expect(try subscriber.result("hello")["rig"] == .string("kiosk"))
        #expect(daemon.process.hasExited == false)
    }

    @Test("SIGTERM tells readiness subscribers, exits 0 and removes the socket file")
    func terminate() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        _ = try client.result("subscribe", .params(("topics", .array([.string("readiness")]))))
        let current = try client.nextEvent()
        #expect(current[path: "data", "state"] == .string("ready"))
        #expect(pathExists(daemon.socketPath))
        #expect(daemon.stop() == 0, "stderr:\n\(daemon.stderr)")
        let last = try client.nextEvent()
        #expect(last["event"] == .string("readiness") && last[path: "data", "state"] == .string("stopped"), "\(last.compactText)")
        #expect(!pathExists(daemon.socketPath), "the socket file must be removed")
        #expect(client.waitUntilClosed(), "clients are disconnected")
        #expect(daemon.stderr.contains("received SIGTERM"))
    }

    @Test("a stale socket file left by SIGKILL is replaced on the next start")
    func staleSocketIsReplaced() throws {
        let first = try RunningDaemon()
        first.signal(SIGKILL)
        _ = first.process.waitForExit(timeout: .seconds(10))
        #expect(pathExists(first.socketPath), "SIGKILL leaves the socket file behind")
        #expect((try? TestClient(path: first.socketPath)) == nil, "nobody listens on it")

        let second = try RunningDaemon(directory: first.directory)
        #expect(try second.connect().result("hello")["rig"] == .string("duo"))
        #expect(second.stop() == 0)
    }

    @Test("a socket with a live listener is not stolen: the second daemon exits non-zero with a clear message")
    func liveSocketIsKept() throws {
        let first = try RunningDaemon()
        let client = try first.connect()
        let second = try RunningDaemon(directory: first.directory, waitUntilServing: false)
        let code = second.process.exitCode(timeout: .seconds(20))
        #expect(code != nil && code != 0, "status \(String(describing: code)); stderr:\n\(second.stderr)")
        #expect(second.stderr.contains("another process is listening"), "stderr:\n\(second.stderr)")
        #expect(second.stderr.contains(first.socketPath))
        // The first daemon and its client are untouched.
        #expect(pathExists(first.socketPath))
        #expect(try client.result("hello")["rig"] == .string("duo"))
        #expect(try first.connect().result("hello")["rig"] == .string("duo"))
    }

    @Test("a socket path that is not a socket is refused, not removed")
    func nonSocketPathIsKept() throws {
        let directory = try TemporaryDirectory()
        try directory.write("foldcam.sock", "not a socket")
        let daemon = try RunningDaemon(directory: directory, waitUntilServing: false)
        let code = daemon.process.exitCode(timeout: .seconds(20))
        #expect(code != nil && code != 0)
        #expect(daemon.stderr.contains("is not a socket"), "stderr:\n\(daemon.stderr)")
        #expect(readTextFile(directory.file("foldcam.sock")) == "not a socket")
    }
}
