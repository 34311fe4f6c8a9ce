import FoldcamTestSupport
import Glibc
import Testing

/// Past frames are kept for snapshots only while a client who may take them is connected
/// (docs/virtual-camera.md, "Snapshots"): nobody else can ask for a past moment, and keeping
/// them costs a copy every 100 ms on the zero-copy path. The daemon says when this changes.
@Suite("snapshot history follows the clients who may take snapshots")
struct SnapshotHistoryTests {
    static let kept = "past frames are kept for snapshots"
    static let dropped = "only the frame on screen is kept"

    @Test func keptFromTheFirstSuchClientUntilTheLastLeaves() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "logLevel": "debug"}"#)
        func count(_ text: String) -> Int { daemon.logLines(containing: text) }
        func waitFor(_ text: String, count wanted: Int) -> Bool { daemon.waitForLog(text, lines: wanted, timeout: .seconds(30)) }
        // The start-up probe's client came and went: its leave is logged after the change.
        try #require(waitFor("disconnected", count: 1), "\(daemon.stderr)")
        let (kept, dropped) = (count(Self.kept), count(Self.dropped))
        #expect(kept == dropped, "\(daemon.stderr)")

        if getuid() == 0 {
            // Without a camera group or control group, uid 65534 may read but not take
            // snapshots: its connection keeps nothing. Admission is logged before any reply.
            let script = try OtherUser.script(OtherUser.requestsScript, named: "client.pl", in: daemon.directory)
            let child = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath, #"{"id": 1, "method": "hello"}"#], in: daemon.directory, name: "reader")
            #expect(child.exitCode(timeout: .seconds(20)) == 0, "\(child.stderr)")
            #expect(count(Self.kept) == kept, "a reader who may not take snapshots made frames kept")
        }

        let first = try daemon.connect()
        _ = try first.result("hello")
        #expect(count(Self.kept) == kept + 1, "\(daemon.stderr)")
        let second = try daemon.connect()
        _ = try second.result("hello")
        #expect(count(Self.kept) == kept + 1, "said once, not per client")

        let leftBefore = count("disconnected")
        first.close()
        #expect(waitFor("disconnected", count: leftBefore + 1))
        #expect(count(Self.dropped) == dropped, "one such client is still connected")
        second.close()
        #expect(waitFor(Self.dropped, count: dropped + 1), "\(daemon.stderr)")
    }
}
