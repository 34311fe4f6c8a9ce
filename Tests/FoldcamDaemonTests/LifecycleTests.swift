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

    @Test("a SIGHUP that changes logLevel changes what every part logs (one logger, shared)")
    func reloadChangesLogLevelEverywhere() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "logLevel": "info"}"#)
        _ = try daemon.connect().result("hello")
        // At info, the server does not log connections (debug) and the engine's warnings show.
        #expect(!daemon.stderr.contains("connected (pid"), "debug lines at info: \(daemon.stderr)")

        try daemon.directory.write(RunningDaemon.configName, #"{"rig": "duo", "logLevel": "debug"}"#)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog("reloaded: rig duo"), "\(daemon.stderr)")
        let client = try daemon.connect()
        _ = try client.result("hello")
        // The server's own debug line: it shares the runner's logger, not a copy.
        #expect(daemon.waitForLog("connected (pid \(getpid())"), "the server still logs at info after the reload:\n\(daemon.stderr)")
        _ = client.sendRequest("no.such.method")
        #expect(daemon.waitForLog("called \"no.such.method\""), "the server's bad-request lines (debug) appear: \(daemon.stderr)")

        // Down to error: the server's warnings (a refused client) are no longer written.
        try daemon.directory.write(RunningDaemon.configName, #"{"rig": "duo", "logLevel": "error", "maxClients": 4}"#)
        daemon.signal(SIGHUP)
        let seen = daemon.stderr.count
        let deadline = ContinuousClock.now + .seconds(30)
        // The reload's own notice is below error: wait until the new limit is in force instead.
        var limited = false
        while !limited && ContinuousClock.now < deadline {
            let clients = try (0..<5).map { _ in try daemon.connect() }
            limited = (try? clients[4].readMessage(timeout: .seconds(2)))?[path: "error", "code"] == .string("tooManyClients")
        }
        #expect(limited, "the reload to maxClients 4 did not take effect")
        // The refusal is a warning of the server's: at error it is not written.
        #expect(!String(daemon.stderr.dropFirst(seen)).contains("<4>refused a client"), "warnings still written at logLevel error: \(daemon.stderr.dropFirst(seen))")
    }

    @Test("a SIGHUP to a rig with a narrower hinge range moves the demo sweep onto the new rig's path: no step is dropped")
    func reloadMovesTheSweep() throws {
        var narrow = try #require(RigPresets.json("duo"))
        for (old, new) in [
            (#""id": "duo""#, #""id": "duo-narrow""#),
            (#""range": [0, 180], "initial": 180"#, #""range": [0, 120], "initial": 120"#),
            (#"{"id": "halfOpen", "ranges": {"fold": [30, 150]}, "display": "inner"},"#, #"{"id": "halfOpen", "ranges": {"fold": [30, 120]}, "display": "inner"}"#),
            (#"{"id": "open", "ranges": {"fold": [150, 180]}, "display": "inner"}"#, ""),
        ] {
            let parts = narrow.split(separator: old, omittingEmptySubsequences: false)
            try #require(parts.count == 2, "the duo preset changed: \(old) not found once")
            narrow = parts.joined(separator: new)
        }
        let daemon = try RunningDaemon(config: #"{"rig": "duo"}"#, arguments: ["--sweep", "--step-ms", "10"])
        try daemon.directory.write("narrow.json", narrow)
        let subscriber = try daemon.connect()
        _ = try subscriber.result("subscribe", .params(("topics", .array([.string("posture")]))))
        try daemon.directory.write(RunningDaemon.configName, #"{"rig": "\#(daemon.directory.file("narrow.json"))"}"#)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog("reloaded: rig duo-narrow"), "\(daemon.stderr)")
        let afterReload = daemon.stderr.count
        // Events after this seq come from the new rig (the reload is applied before it logs).
        guard case let .int(reloadSeq)? = try subscriber.result("state")["seq"] else { throw HarnessError("state has no seq") }
        // More than a whole fold cycle of the new rig (0 to 120 and back in 5° steps).
        var angles: [Double] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while angles.count < 80 && ContinuousClock.now < deadline {
            let event = try subscriber.nextEvent(timeout: .seconds(30))
            guard case let .int(seq)? = event["seq"], seq > reloadSeq else { continue }
            if let angle = event[path: "data", "hinges", "fold"]?.numberValue { angles.append(angle) }
        }
        #expect(angles.count >= 80, "the sweep stopped after the reload: \(angles.count) steps")
        #expect(angles.allSatisfy { (0...120).contains($0) }, "steps outside the new range: \(angles.filter { $0 > 120 })")
        #expect(!String(daemon.stderr.dropFirst(afterReload)).contains("dropped"), "the sweep fed angles the new rig drops:\n\(daemon.stderr.dropFirst(afterReload))")
    }

    @Test("a reload one part refuses is refused whole: the rig, the log level and the limits stay as they were")
    func reloadIsAllOrNothing() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "logLevel": "info"}"#)
        try daemon.directory.write(RunningDaemon.configName, #"{"rig": "kiosk", "cameraMode": "individual", "logLevel": "debug"}"#)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog("reload rejected"), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("cameraMode would change from virtual to individual") && daemon.stderr.contains("restart foldcamd"), "\(daemon.stderr)")
        #expect(try daemon.connect().result("hello")["rig"] == .string("duo"))
        #expect(!daemon.stderr.contains("<7>"), "the refused reload's logLevel took effect: \(daemon.stderr)")
    }

    @Test("a SIGHUP that changes the loopback or the rig's pool rebuilds the producer: the old one stops before the new one starts")
    func reloadRebuildsTheProducer() throws {
        // Nodes that do not exist stand in for the loopbacks: the producer runs (synthetic
        // sources) and reports that it cannot open its output, which is all this test needs.
        let directory = try TemporaryDirectory()
        let first = "/dev/video250", second = "/dev/video251"
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "logLevel": "debug", "loopbackDevice": "\#(first)"}"#, directory: directory)
        #expect(daemon.waitForLog("virtual camera: feeding \(first)"), "\(daemon.stderr)")

        // 1. Another loopback: the producer is rebuilt on it.
        try directory.write(RunningDaemon.configName, #"{"rig": "duo", "logLevel": "debug", "loopbackDevice": "\#(second)"}"#)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog("virtual camera: feeding \(second)"), "\(daemon.stderr)")
        let lines = daemon.stderr.split(separator: "\n")
        let stoppedOld = try #require(lines.firstIndex { $0.contains("stopped feeding \(first)") }, "the old producer never stopped:\n\(daemon.stderr)")
        let startedNew = try #require(lines.firstIndex { $0.contains("feeding \(second)") })
        #expect(stoppedOld < startedNew, "the new producer started before the old one let go:\n\(daemon.stderr)")
        let log = daemon.stderr
        #expect(log.contains("rebuilding for the new configuration (loopback \(first) → \(second))"), "\(log)")

        // 2. The same loopback, a rig whose pool lacks the back camera (same common format).
        var rig = try #require(RigPresets.json("duo"))
        // Cut the last camera, "back", out of the cameras array.
        let parts = rig.split(separator: ",\n    {\"id\": \"back\"", omittingEmptySubsequences: false)
        try #require(parts.count == 2, "the duo preset changed: no \"back\" camera")
        let rest = parts[1].split(separator: "\n  ],\n  \"postures\"", omittingEmptySubsequences: false)
        try #require(rest.count == 2, "the duo preset changed: \"back\" is not the last camera")
        rig = parts[0] + "\n  ],\n  \"postures\"" + rest[1]
        rig = rig.split(separator: #""id": "duo""#, omittingEmptySubsequences: false).joined(separator: #""id": "duo-no-back""#)
        try directory.write("no-back.json", rig)
        let seen = daemon.stderr.count
        try directory.write(RunningDaemon.configName, #"{"rig": "\#(directory.file("no-back.json"))", "logLevel": "debug", "loopbackDevice": "\#(second)"}"#)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog("reloaded: rig duo-no-back"), "\(daemon.stderr)")
        #expect(daemon.waitForLog("stopped feeding \(second)"), "\(daemon.stderr)")
        let after = String(daemon.stderr.dropFirst(seen))
        #expect(after.contains("rebuilding for the new configuration (pool ") && after.contains("back →"), "\(after)")
        #expect(daemon.waitForLog("feeding \(second) with"), "\(daemon.stderr)")

        // 3. A reload that changes nothing the camera side is built from leaves it running.
        let quiet = daemon.stderr.count
        try directory.write(RunningDaemon.configName, #"{"rig": "\#(directory.file("no-back.json"))", "logLevel": "debug", "loopbackDevice": "\#(second)", "maxClients": 100}"#)
        daemon.signal(SIGHUP)
        let deadline = ContinuousClock.now + .seconds(10)
        while daemon.stderr.dropFirst(quiet).split(separator: "reloaded: rig duo-no-back", omittingEmptySubsequences: false).count < 2 && ContinuousClock.now < deadline { usleep(10_000) }
        #expect(String(daemon.stderr.dropFirst(quiet)).contains("reloaded: rig duo-no-back"), "\(daemon.stderr)")
        #expect(!String(daemon.stderr.dropFirst(quiet)).contains("rebuilding"), "\(daemon.stderr.dropFirst(quiet))")
        #expect(try daemon.connect().result("hello")["rig"] == .string("duo-no-back"))
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
