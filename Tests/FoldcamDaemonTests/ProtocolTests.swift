import FoldcamCore
import FoldcamTestSupport
import Testing

/// The protocol end to end: the real `foldcamd --simulate` binary over its real Unix socket.
@Suite("foldcamd protocol over the socket")
struct ProtocolTests {
    @Test("a capture rotation change alone publishes directions, and the event equals a query")
    func captureRotationPublishesDirections() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        _ = try client.result("subscribe", .params(("topics", .array([.string("directions")]))))
        _ = try client.nextEvent()  // the current value
        // Held sideways (world up along −x): the inner camera's captures turn 270°, nothing else.
        _ = try client.result("simulate.gravity", .params(("vector", .array([.int(1), .int(0), .int(0)]))))
        let event = try client.nextEvent()
        #expect(event["event"] == .string("directions"))
        #expect(event[path: "data", "displays", "inner", "cameras", "inner-front", "captureRotation"] == .int(270))
        #expect(event["data"] == (try client.result("directions")))
    }

    @Test("hello, state and directions answer with the duo rig")
    func queries() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()

        let hello = try client.result("hello")
        #expect(hello["protocol"] == .int(1))
        #expect(hello["rig"] == .string("duo"))
        #expect(hello["mode"] == .string("simulate"))
        #expect(hello["topics"] == .array(["directions", "posture", "devices", "virtualCamera", "readiness", "screens"].map { .string($0) }))
        guard case let .array(methods)? = hello["methods"] else { throw HarnessError("hello has no methods: \(hello.compactText)") }
        #expect(methods.contains(.string("simulate.hinge")))
        #expect(methods.contains(.string("pinView")))

        let state = try client.result("state")
        #expect(state["rig"] == .string("duo"))
        #expect(state["seq"] == .int(0))

        let directions = try client.result("directions")
        guard case let .object(displays)? = directions["displays"] else { throw HarnessError("directions has no displays: \(directions.compactText)") }
        #expect(displays.map(\.0) == ["inner", "outer"])
        // The duo starts open (fold 180): the inner display is the one being viewed.
        #expect(directions["viewedDisplay"] == .string("inner"))

        let outer = try client.result("directions", .params(("display", .string("outer"))))
        #expect(outer["display"] == .string("outer"))
        #expect(outer["viewed"] == .bool(false))

        let unknown = try client.call("directions", .params(("display", .string("nope"))))
        #expect(unknown[path: "error", "code"] == .string("invalidParams"))
        let unknownMethod = try client.call("frobnicate")
        #expect(unknownMethod[path: "error", "code"] == .string("unknownMethod"))
        // The connection stays usable after errors.
        #expect(try client.result("hello")["rig"] == .string("duo"))
    }

    @Test("subscribe, pin and fold: events arrive in order with increasing seq and end at the closed posture")
    func subscribePinAndFold() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        let topics = ["directions", "posture", "devices", "virtualCamera", "readiness", "screens"]

        let subscribed = try client.result("subscribe", .params(("topics", .array(topics.map { .string($0) }))))
        #expect(subscribed["topics"] == .array(topics.map { .string($0) }))
        #expect(subscribed["seq"] == .int(0))
        // Right after subscribing: every topic's current value, at the current seq.
        var initial: [String: JSONValue] = [:]
        for _ in topics {
            let event = try client.nextEvent()
            #expect(event["seq"] == .int(0))
            if let topic = event["event"]?.stringValue { initial[topic] = event["data"] }
        }
        #expect(Set(initial.keys) == Set(topics))
        #expect(initial["posture"]?["posture"] == .string("open"))
        #expect(initial["posture"]?["pinnedDisplay"] == .null)

        // A second client checks that events go to subscribers only.
        let bystander = try daemon.connect()
        _ = try bystander.result("hello")

        let pinned = try client.result("pinView", .params(("display", .string("outer"))))
        #expect(pinned["pinnedDisplay"] == .string("outer"))
        #expect(pinned["viewedDisplay"] == .string("outer"))
        let unpinned = try client.result("unpinView")
        #expect(unpinned["pinnedDisplay"] == .null)
        #expect(unpinned["viewedDisplay"] == .string("inner"))

        let angles: [Double] = [150, 120, 90, 60, 30, 10, 0]
        for angle in angles {
            let posture = try client.result("simulate.hinge", .params(("hinge", .string("fold")), ("angle", .double(angle))))
            #expect(posture["hinges"]?["fold"]?.numberValue == angle)
        }
        let state = try client.result("state")

        var events = client.pendingEvents
        client.pendingEvents.removeAll()
        events += client.availableLines().compactMap { try? JSONParser.parse($0) }
        let seqs = events.compactMap { $0["seq"].flatMap { if case let .int(seq) = $0 { seq } else { nil } } }
        #expect(seqs.count == events.count)
        #expect(seqs.count >= angles.count + 2, "every pin, unpin and hinge change publishes at least one event")
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "seq must increase strictly: \(seqs)")
        #expect(seqs.first == 1)
        #expect(state["seq"] == seqs.last.map { .int($0) }, "the state's seq is the last event's")

        // The posture events walk through pin, unpin and the fold in the order they happened.
        let postures = events.filter { $0["event"] == .string("posture") }.compactMap(\.["data"])
        #expect(postures.first?["pinnedDisplay"] == .string("outer"))
        #expect(postures.dropFirst().first?["pinnedDisplay"] == .null)
        let foldAngles = postures.compactMap { $0["hinges"]?["fold"]?.numberValue }
        #expect(foldAngles.suffix(angles.count) == ArraySlice(angles))
        let postureNames = postures.compactMap { $0["posture"]?.stringValue }
        #expect(postureNames.last == "closed")
        #expect(postureNames.contains("halfOpen"))

        // Final values: closed, viewed from the outer display, the virtual camera on outer-front.
        func last(_ topic: String) -> JSONValue? { events.last { $0["event"] == .string(topic) }?["data"] }
        #expect(last("posture")?["posture"] == .string("closed"))
        #expect(last("posture")?["viewedDisplay"] == .string("outer"))
        #expect(last("directions")?["viewedDisplay"] == .string("outer"))
        #expect(last("virtualCamera")?["source"] == .string("outer-front"))
        #expect(state["posture"] == .string("closed"))
        #expect(state["viewedDisplay"] == .string("outer"))
        #expect(state[path: "virtualCamera", "source"] == .string("outer-front"))
        #expect(state[path: "hinges", "fold"]?.numberValue == 0)

        // Queries agree with the events.
        #expect(try client.result("directions")["viewedDisplay"] == .string("outer"))
        #expect(try client.result("directions", .params(("display", .string("outer"))))["viewed"] == .bool(true))

        // The bystander never subscribed: it has no events, only its reply.
        #expect(bystander.availableLines().isEmpty)
        let reply = try bystander.call("hello")
        #expect(reply["result"] != nil)
        #expect(bystander.pendingEvents.isEmpty)

        // After unsubscribing, changes are not sent.
        _ = try client.result("unsubscribe", .params(("topics", .array(topics.map { .string($0) }))))
        _ = try client.result("simulate.hinge", .params(("hinge", .string("fold")), ("angle", .double(90))))
        _ = try client.result("hello")
        #expect(client.pendingEvents.isEmpty)
    }
}

/// Strict params: a typo is refused with the nearest valid name instead of silently ignored.
@Suite("foldcamd strict params")
struct StrictParamsTests {
    @Test("an unknown param name gets invalidParams naming it and the nearest valid one")
    func unknownParamNames() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        let typo = try client.call("directions", .params(("displya", .string("outer"))))
        #expect(typo[path: "error", "code"] == .string("invalidParams"))
        #expect(typo[path: "error", "message"]?.stringValue?.contains(#"unknown member "displya"; did you mean "display"?"#) == true, "\(typo)")
        let none = try client.call("state", .params(("verbose", .bool(true))))
        #expect(none[path: "error", "message"]?.stringValue?.contains("this method takes no params") == true, "\(none)")
        let method = try client.call("directon")
        #expect(method[path: "error", "code"] == .string("unknownMethod"))
        #expect(method[path: "error", "message"]?.stringValue?.contains(#"did you mean "directions"?"#) == true, "\(method)")
        #expect(try client.result("directions", .params(("display", .string("outer"))))["display"] == .string("outer"))
    }

    @Test("simulate.switch for a switch the rig lacks is refused, and nothing changes")
    func missingSwitch() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        let before = try client.result("state")
        let reply = try client.call("simulate.switch", .params(("switch", .string("tabletMode")), ("state", .string("on"))))
        #expect(reply[path: "error", "code"] == .string("invalidParams"))
        #expect(reply[path: "error", "message"]?.stringValue?.contains("rig duo has no tabletMode switch") == true, "\(reply)")
        #expect(try client.result("state")["seq"] == before["seq"])
    }

    @Test("simulate.gravity with a vector whose length overflows is refused, and state.gravity never holds null components")
    func overflowingGravity() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        let reply = try client.call("simulate.gravity", .params(("vector", .array([.double(-1e308), .int(0), .double(1e308)]))))
        #expect(reply[path: "error", "code"] == .string("invalidParams"), "\(reply)")
        #expect(try client.result("state")["gravity"] == .null)
        #expect(try client.result("simulate.gravity", .params(("vector", .array([.int(0), .double(-9.81), .int(0)]))))["posture"] != nil)
    }

    @Test("an integral float id such as 1.0 is answered as 1; 1.5 is refused saying it is not an integer")
    func floatIDs() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        #expect(client.sendLine(#"{"id": 1.0, "method": "hello"}"#))
        let accepted = try client.readMessage()
        #expect(accepted["id"] == .int(1) && accepted[path: "result", "rig"] == .string("duo"), "\(accepted)")
        #expect(client.sendLine(#"{"id": 1.5, "method": "hello"}"#))
        let refused = try client.readMessage()
        #expect(refused[path: "error", "code"] == .string("invalidRequest"))
        #expect(refused[path: "error", "message"]?.stringValue?.contains("is not an integer") == true, "\(refused)")
    }
}
