import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// docs/security.md and docs/protocol.md, the rules of a connection's life: what a half-closed
/// client is still owed, that blank lines are no request, and that the log budget belongs to
/// the user, not to the connection.
@Suite("foldcamd connection rules")
struct ClientRulesTests {
    @Test("a client that shuts its writing side after snapshot and hello still gets both replies, then the connection closes")
    func halfCloseGetsOwedReplies() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        #expect(client.sendLine(#"{"id": 1, "method": "snapshot"}"#) && client.sendLine(#"{"id": 2, "method": "hello"}"#))
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        var replies: [Int: JSONValue] = [:]
        while replies.count < 2, let message = try? client.readMessage(timeout: .seconds(30)) {
            if case let .int(id)? = message["id"] { replies[id] = message }
        }
        #expect(replies[1]?[path: "result", "png"]?.stringValue?.hasPrefix("iVBORw0KGgo") == true, "the deferred snapshot reply: \(replies[1]?.compactText ?? "none")")
        #expect(replies[2]?[path: "result", "rig"] == .string("duo"))
        #expect(client.waitUntilClosed(timeout: .seconds(30)), "the daemon closes once nothing more is owed")
        // The daemon serves others meanwhile and after.
        #expect(try daemon.connect().result("hello")["rig"] == .string("duo"))
    }

    @Test("blank lines are no request: a client sending only blank lines is closed after requestTimeoutSeconds")
    func blankLinesDoNotStopTheDeadline() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "requestTimeoutSeconds": 1}"#)
        let blank = try daemon.connect()
        #expect(blank.sendBytes(Array("\n \r\n\t\n".utf8)))
        let closing = try blank.readMessage(timeout: .seconds(30))
        #expect(closing[path: "error", "code"] == .string("timeout"), "\(closing)")
        #expect(blank.waitUntilClosed(timeout: .seconds(30)))
    }

    @Test("the log budget is the user's: reconnecting does not renew it, and over-long lines are inside it")
    func logBudgetIsPerUser() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "logLevel": "debug"}"#)
        for _ in 0..<12 {
            let client = try daemon.connect()
            _ = try client.call("nonsense")
            client.close()
        }
        let oversized = [UInt8](repeating: UInt8(ascii: "A"), count: 70 * 1024)
        for _ in 0..<12 {
            let client = try daemon.connect()
            _ = client.sendBytes(oversized)
            #expect(client.waitUntilClosed(timeout: .seconds(30)))
        }
        // Wait on the daemon: a later request is handled after every line above was logged or not.
        #expect(try daemon.connect().result("hello")["rig"] == .string("duo"))
        let lines = daemon.stderr.split(separator: "\n")
        let caused = lines.filter { $0.contains("called \"nonsense\"") || $0.contains("request line over") }
        #expect(caused.count <= 5, "\(caused.count) log lines from one user's 24 connections:\n\(caused.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("held back") }, "\(daemon.stderr)")
    }
}
