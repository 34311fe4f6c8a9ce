import FoldcamCore
import FoldcamTestSupport
import Testing

/// Several virtual cameras (docs/protocol.md, "Several virtual cameras"): the `virtualCamera`
/// and `readiness` topics carry each camera's value with its id, each follows its own display
/// through a change, and `snapshot` takes the camera's id. The simulated daemon decides without
/// loopbacks (their labels name none), which is all the topics need.
@Suite("several virtual cameras over the socket")
struct VirtualCameraTopicsTests {
    static let kiosk = #"""
        {"rig": "kiosk", "virtualCameras": [
          {"id": "front", "follows": "front", "loopbackLabel": "no such loopback front"},
          {"id": "rear", "follows": "rear", "loopbackLabel": "no such loopback rear"}]}
        """#

    /// Each camera's value in a topic's data, by id.
    static func byID(_ data: JSONValue?) -> [String: JSONValue] {
        guard case let .array(cameras)? = data?["cameras"] else { return [:] }
        var result: [String: JSONValue] = [:]
        for camera in cameras { if let id = camera["id"]?.stringValue { result[id] = camera } }
        return result
    }

    /// Events until one of `topic` satisfies `accept` (a generous deadline: no timing asserted).
    static func waitFor(_ client: TestClient, _ topic: String, _ accept: (JSONValue) -> Bool) throws -> JSONValue {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let event = try client.nextEvent(timeout: .seconds(30))
            if event["event"]?.stringValue == topic, let data = event["data"], accept(data) { return data }
        }
        throw HarnessError("no \(topic) event matched within 30 s")
    }

    @Test("two kiosk cameras: each topic carries both ids, each follows its own display through an unplug and a pin")
    func kioskCamerasFollowTheirDisplays() throws {
        let directory = try TemporaryDirectory()
        let daemon = try RunningDaemon(config: Self.kiosk, directory: directory)
        let client = try daemon.connect()
        _ = try client.result("subscribe", .params(("topics", .array([.string("virtualCamera"), .string("readiness")]))))
        let initial = try Self.waitFor(client, "virtualCamera") { _ in true }
        #expect(initial["id"] == .string("front"), "the default camera is the first listed: \(initial.compactText)")
        #expect(initial["source"] == .string("front-cam"))
        var cameras = Self.byID(initial)
        #expect(cameras["front"]?["source"] == .string("front-cam"))
        #expect(cameras["front"]?["pool"] == .array([.string("front-cam")]))
        #expect(cameras["rear"]?["source"] == .string("rear-cam"))
        #expect(cameras["rear"]?["pool"] == .array([.string("rear-cam")]))
        let ready = try Self.waitFor(client, "readiness") { _ in true }
        #expect(Self.byID(ready)["rear"]?["state"] == .string("ready"), "\(ready.compactText)")

        // The front camera goes: the front virtual camera loses its source, the rear keeps its.
        _ = try client.result("simulate.unplug", .params(("camera", .string("front-cam"))))
        let unplugged = try Self.waitFor(client, "virtualCamera") { Self.byID($0)["front"]?["source"] == .null }
        cameras = Self.byID(unplugged)
        #expect(cameras["rear"]?["source"] == .string("rear-cam"), "\(unplugged.compactText)")
        let interrupted = try Self.waitFor(client, "readiness") { Self.byID($0)["front"]?["state"] == .string("interrupted") }
        #expect(Self.byID(interrupted)["front"]?["reason"] == .string("unplugged"))
        #expect(Self.byID(interrupted)["rear"]?["state"] == .string("ready"))
        #expect(interrupted["id"] == .string("front") && interrupted["state"] == .string("interrupted"))

        // A pin moves the viewed display; cameras bound to a display do not follow it.
        _ = try client.result("simulate.plug", .params(("camera", .string("front-cam"))))
        _ = try Self.waitFor(client, "virtualCamera") { Self.byID($0)["front"]?["source"] == .string("front-cam") }
        _ = try client.result("pinView", .params(("display", .string("rear"))))
        let state = try client.result("state")
        #expect(Self.byID(state["virtualCamera"])["front"]?["source"] == .string("front-cam"), "\(state.compactText)")
        #expect(Self.byID(state["readiness"])["front"]?["state"] == .string("ready"), "\(state.compactText)")

        // Snapshots name their camera; an unknown one is refused with the nearest id.
        let rear = try client.result("snapshot", .params(("camera", .string("rear"))))
        #expect(rear["source"] == .string("rear-cam"), "\(rear.compactText)")
        let front = try client.result("snapshot")
        #expect(front["source"] == .string("front-cam"))
        let typo = try client.call("snapshot", .params(("virtualCamera", .string("rer"))))
        #expect(typo[path: "error", "code"] == .string("invalidParams"))
        #expect(typo[path: "error", "message"]?.stringValue?.contains("did you mean \"rear\"?") == true, "\(typo.compactText)")
    }

    @Test("foldcamctl status shows each virtual camera; snapshot --camera writes that camera's frame")
    func controlTool() throws {
        let directory = try TemporaryDirectory()
        let daemon = try RunningDaemon(config: Self.kiosk, directory: directory)
        func run(_ arguments: [String]) throws -> (code: Int32?, out: String, err: String) {
            let child = try ChildProcess(executable: try Executables.path(of: "foldcamctl"), arguments: ["--socket", daemon.socketPath] + arguments,
                                         stdoutPath: directory.file("ctl.out"), stderrPath: directory.file("ctl.err"))
            let code = child.exitCode(timeout: .seconds(60))
            return (code, child.stdout, child.stderr)
        }
        let status = try run(["status"])
        #expect(status.code == 0, "\(status.err)")
        #expect(status.out.contains("virtual camera  front: front-cam, YUYV 1920x1080 @ 30 fps; ready"), "\(status.out)")
        #expect(status.out.contains("virtual camera  rear: rear-cam, YUYV 1920x1080 @ 30 fps; ready"), "\(status.out)")
        let snapshot = try run(["snapshot", "--camera", "rear", directory.file("rear.png")])
        #expect(snapshot.code == 0, "\(snapshot.err)")
        #expect(snapshot.out.contains("from rear-cam"), "\(snapshot.out)")
        let typo = try run(["snapshot", "--camera", "frnt", directory.file("front.png")])
        #expect(typo.code != 0)
        #expect(typo.err.contains("did you mean \"front\"?"), "\(typo.err)")
    }

    @Test("a display-bound camera and a viewed one on the duo: folding shut moves only the viewed one")
    func duoFold() throws {
        let directory = try TemporaryDirectory()
        let daemon = try RunningDaemon(config: #"""
            {"rig": "duo", "virtualCameras": [
              {"id": "any", "loopbackLabel": "no such loopback any"},
              {"id": "inner", "follows": "inner", "loopbackLabel": "no such loopback inner"}]}
            """#, directory: directory)
        let client = try daemon.connect()
        _ = try client.result("subscribe", .params(("topics", .array([.string("virtualCamera")]))))
        let open = try Self.waitFor(client, "virtualCamera") { _ in true }
        #expect(Self.byID(open)["inner"]?["source"] == .string("inner-front"), "\(open.compactText)")
        #expect(open["id"] == .string("any") && open["source"] == .string("inner-front"))
        _ = try client.result("simulate.hinge", .params(("hinge", .string("fold")), ("angle", .int(0))))
        let closed = try Self.waitFor(client, "virtualCamera") { $0["source"] == .string("outer-front") }
        // Shut, the inner display is covered: its camera shows nobody rather than the outer one.
        #expect(Self.byID(closed)["inner"]?["source"] == .null, "\(closed.compactText)")
        #expect(Self.byID(closed)["any"]?["source"] == .string("outer-front"))
    }
}
