import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// SO_PEERCRED: a client running as another user may read but not change anything.
@Suite("foldcamd peer credentials")
struct CredentialTests {
    @Test("a client running as uid 65534 gets forbidden for pinView, reads still work, the denial is logged")
    func otherUserIsRefused() throws {
        try #require(getuid() == 0, "this test starts a client as another user (setpriv), which needs root; CI runs as root")
        let daemon = try RunningDaemon()
        let script = try OtherUser.script(OtherUser.requestsScript, named: "client.pl", in: daemon.directory)
        let requests = [
            #"{"id": 1, "method": "hello"}"#,
            #"{"id": 2, "method": "pinView", "params": {"display": "outer"}}"#,
            #"{"id": 3, "method": "simulate.hinge", "params": {"hinge": "fold", "angle": 0}}"#,
            #"{"id": 4, "method": "directions", "params": {"display": "inner"}}"#,
            #"{"id": 5, "method": "subscribe", "params": {"topics": ["posture"]}}"#,
        ]
        let child = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath] + requests, in: daemon.directory, name: "client")
        let code = child.exitCode(timeout: .seconds(20))
        #expect(code == 0, "client failed: \(child.stderr)")
        let replies = child.stdout.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        try #require(replies.count == requests.count, "replies: \(child.stdout) errors: \(child.stderr)")

        #expect(replies[0][path: "result", "rig"] == .string("duo"))
        #expect(replies[1]["id"] == .int(2))
        #expect(replies[1][path: "error", "code"] == .string("forbidden"))
        #expect(replies[2][path: "error", "code"] == .string("forbidden"))
        #expect(replies[3][path: "result", "display"] == .string("inner"))
        #expect(replies[4][path: "result", "topics"] == .array([.string("posture")]))

        // Nothing changed: the refused calls had no effect.
        let root = try daemon.connect()
        let state = try root.result("state")
        #expect(state["seq"] == .int(0))
        #expect(state["pinnedDisplay"] == .null)
        #expect(state[path: "hinges", "fold"]?.numberValue == 180)
        // The same call from root (the daemon's own user) succeeds.
        #expect(try root.result("pinView", .params(("display", .string("outer"))))["pinnedDisplay"] == .string("outer"))

        #expect(daemon.waitForLog("uid 65534, pid \(child.pid)"), "the denial names the peer; stderr:\n\(daemon.stderr)")
        let denial = daemon.stderr.split(separator: "\n").first { $0.contains("denied pinView") }
        #expect(denial?.hasPrefix("<4>") == true, "logged at warning priority: \(denial ?? "none")")
        #expect(denial?.contains("uid 65534") == true)
    }
}
