import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// Pins belong to the connection that made them (docs/protocol.md, "Pins"): a plain pin ends
/// with its connection, the newest pin wins, and one persisted pin survives a SIGKILL and
/// restart through the state directory; a bad state file is reported and never fatal.
@Suite("pins and the state directory")
struct PinTests {
    /// Reads posture events until one says `pinned` (a display id, or nil for none).
    private func waitForPin(_ observer: TestClient, _ pinned: String?, timeout: Duration = .seconds(20)) throws -> Bool {
        let want: JSONValue = pinned.map(JSONValue.string) ?? .null
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let event = try observer.nextEvent(timeout: timeout)
            if event["event"] == .string("posture") && event[path: "data", "pinnedDisplay"] == want { return true }
        }
        return false
    }

    private func observe(_ daemon: RunningDaemon) throws -> TestClient {
        let observer = try daemon.connect()
        _ = try observer.result("subscribe", .params(("topics", .array([.string("posture")]))))
        _ = try observer.nextEvent()
        return observer
    }

    private static var ownCommand: String {
        readTextFile("/proc/self/comm").split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test("a pin lasts while its connection is open: closing it releases the pin, and state shows the owner")
    func disconnectReleases() throws {
        let daemon = try RunningDaemon()
        let observer = try observe(daemon)
        let kiosk = try daemon.connect()
        let posture = try kiosk.result("pinView", .params(("display", .string("outer"))))
        #expect(posture["pinnedDisplay"] == .string("outer"))
        let pins = try observer.result("state")["pins"]
        guard case let .array(list)? = pins, list.count == 1 else { throw HarnessError("state.pins: \(pins?.compactText ?? "missing")") }
        #expect(list[0]["display"] == .string("outer") && list[0]["inForce"] == .bool(true) && list[0]["persist"] == .bool(false) && list[0]["connected"] == .bool(true))
        #expect(list[0]["uid"]?.numberValue == Double(getuid()) && list[0]["pid"]?.numberValue == Double(getpid()))
        #expect(list[0]["command"] == .string(Self.ownCommand), "\(list[0].compactText)")
        #expect(daemon.waitForLog("pinned the view to outer while its connection is open"), "\(daemon.stderr)")

        kiosk.close()
        #expect(try waitForPin(observer, nil), "the pin outlived its connection")
        #expect(try observer.result("state")["pins"] == .array([]))
        #expect(daemon.waitForLog("disconnected; its pin on outer ended; nothing is pinned"), "\(daemon.stderr)")
    }

    @Test("several owners: the newest pin wins; when its owner leaves the next newest takes over; unpin ends only the caller's own")
    func severalOwners() throws {
        let daemon = try RunningDaemon()
        let observer = try observe(daemon)
        let first = try daemon.connect(), second = try daemon.connect()
        _ = try first.result("pinView", .params(("display", .string("outer"))))
        #expect(try waitForPin(observer, "outer"))
        _ = try second.result("pinView", .params(("display", .string("inner"))))
        #expect(try waitForPin(observer, "inner"))
        guard case let .array(pins)? = try observer.result("state")["pins"] else { throw HarnessError("no pins") }
        #expect(pins.map { $0["display"] } == [.string("inner"), .string("outer")], "newest first")
        #expect(pins.map { $0["inForce"] } == [.bool(true), .bool(false)])

        // The first unpins: the second's pin stays in force, nothing is published.
        #expect(try first.result("unpinView")["pinnedDisplay"] == .string("inner"))
        _ = try first.result("pinView", .params(("display", .string("outer"))))
        #expect(try waitForPin(observer, "outer"), "the re-pin is the newest")
        first.close()
        #expect(try waitForPin(observer, "inner"), "the second's pin takes over when the first leaves")
        second.close()
        #expect(try waitForPin(observer, nil))
    }

    @Test("a persisted pin and the screen rotations survive SIGKILL and a restart; unpin with persist ends it")
    func persistSurvivesRestart() throws {
        let directory = try TemporaryDirectory()
        let state = directory.file("state")
        #expect(mkdir(state, 0o755) == 0)
        let config = #"{"rig": "duo", "stateDirectory": "\#(state)"}"#
        let first = try RunningDaemon(config: config, directory: directory)
        let kiosk = try first.connect()
        _ = try kiosk.result("pinView", .params(("display", .string("outer")), ("persist", .bool(true))))
        _ = try kiosk.result("setScreenRotation", .params(("display", .string("inner")), ("rotation", .int(90))))
        kiosk.close()
        // The persisted pin outlives its connection (it is still pinned once the close is seen).
        #expect(first.waitForLog("pinned the view to outer (persisted"), "\(first.stderr)")
        let file = state + "/state.json"
        let deadline = ContinuousClock.now + .seconds(20)
        while !readTextFile(file).contains("\"inner\": 90") && ContinuousClock.now < deadline { usleep(10_000) }
        #expect(readTextFile(file).contains("\"display\": \"outer\""), "state file: \(readTextFile(file))")
        first.signal(SIGKILL)
        _ = first.process.waitForExit(timeout: .seconds(10))

        let second = try RunningDaemon(config: config, directory: directory)
        let reader = try second.connect()
        let restored = try reader.result("state")
        #expect(restored["pinnedDisplay"] == .string("outer"), "\(restored.compactText)")
        #expect(restored[path: "displays", "inner", "screenRotation"]?.numberValue == 90, "\(restored.compactText)")
        guard case let .array(pins)? = restored["pins"], let pin = pins.first else { throw HarnessError("no pins after restart: \(restored.compactText)") }
        #expect(pin["persist"] == .bool(true) && pin["connected"] == .bool(false) && pin["pid"]?.numberValue == Double(getpid()))
        #expect(second.waitForLog("restored the persisted pin on outer"), "\(second.stderr)")

        // A plain unpin from another connection does not end it; unpin with persist does.
        let admin = try second.connect()
        #expect(try admin.result("unpinView")["pinnedDisplay"] == .string("outer"))
        #expect(try admin.result("unpinView", .params(("persist", .bool(true))))["pinnedDisplay"] == .null)
        let cleared = ContinuousClock.now + .seconds(20)
        while readTextFile(file).contains("\"pin\"") && ContinuousClock.now < cleared { usleep(10_000) }
        #expect(!readTextFile(file).contains("\"pin\""), "the file still holds the pin: \(readTextFile(file))")
        #expect(second.stop() == 0)
    }

    @Test("a corrupt or foreign state file is reported, set aside and ignored; the daemon serves and writes a new one")
    func corruptStateFile() throws {
        for (name, contents, problem) in [
            ("not JSON", "{\"version\": 1, \"pin\": ", "not JSON"),
            ("wrong version", #"{"version": 7}"#, "\"version\" is 7"),
            ("bad rotation", #"{"version": 1, "screenRotations": {"inner": 45}}"#, "expected 0, 90, 180 or 270"),
        ] {
            let directory = try TemporaryDirectory()
            let state = directory.file("state")
            #expect(mkdir(state, 0o755) == 0)
            let file = state + "/state.json"
            try directory.write("state/state.json", contents)
            let daemon = try RunningDaemon(config: #"{"rig": "duo", "stateDirectory": "\#(state)"}"#, directory: directory)
            #expect(daemon.stderr.contains("<4>state: \(file) is not a state file foldcamd wrote") && daemon.stderr.contains(problem), "\(name): \(daemon.stderr)")
            #expect(readTextFile(file + ".bad") == contents, "\(name): the bad file is kept aside")
            let client = try daemon.connect()
            #expect(try client.result("state")["pinnedDisplay"] == .null)
            _ = try client.result("pinView", .params(("display", .string("outer")), ("persist", .bool(true))))
            let deadline = ContinuousClock.now + .seconds(20)
            while !readTextFile(file).contains("outer") && ContinuousClock.now < deadline { usleep(10_000) }
            #expect(readTextFile(file).contains("\"display\": \"outer\""), "\(name): no new file")
            #expect(daemon.stop() == 0)
        }
    }

    @Test("a persisted pin needs a state directory; a pin on a display the restarted rig lacks is dropped with a warning")
    func persistNeedsStateAndKnownDisplay() throws {
        let plain = try RunningDaemon()
        let failure = try plain.connect().call("pinView", .params(("display", .string("outer")), ("persist", .bool(true))))
        #expect(failure[path: "error", "code"] == .string("invalidParams"))
        #expect(failure[path: "error", "message"]?.stringValue?.contains("no state directory") == true, "\(failure.compactText)")
        #expect(plain.stop() == 0)

        let directory = try TemporaryDirectory()
        let state = directory.file("state")
        #expect(mkdir(state, 0o755) == 0)
        try directory.write("state/state.json", #"{"version": 1, "pin": {"display": "rear", "uid": 0, "pid": 1, "command": "kiosk"}}"#)
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "stateDirectory": "\#(state)"}"#, directory: directory)
        #expect(daemon.stderr.contains("rig duo has no display \"rear\"; the persisted pin made by uid 0 pid 1 \"kiosk\" is dropped"), "\(daemon.stderr)")
        #expect(try daemon.connect().result("state")["pinnedDisplay"] == .null)
    }
}
