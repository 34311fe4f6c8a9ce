import FoldcamTestSupport
import Glibc
import Testing

/// A client leaving is normal: the daemon notes it at debug, never as a warning, however the
/// client left (end of stream, or a close with the daemon's reply still unread on its side,
/// which the daemon's next read sees as ECONNRESET).
@Suite("client disconnects are not warnings")
struct DisconnectLogTests {
    @Test func aClientClosingWithItsReplyUnreadIsLoggedAtDebug() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "logLevel": "debug"}"#)
        let leaving = try daemon.connect()
        leaving.sendRequest("hello")
        // Wait until the reply sits unread in this client's receive queue, then close.
        var entry = pollfd(fd: leaving.fd, events: Int16(POLLIN), revents: 0)
        try #require(poll(&entry, 1, 10_000) == 1, "no reply to hello")
        leaving.close()
        let orderly = try daemon.connect()
        _ = try orderly.result("hello")
        orderly.close()
        // Every leave is logged (the start-up probe's, then these two: the event waited for),
        // and none as a warning (<4>).
        _ = daemon.waitForLog("disconnected", lines: 3, timeout: .seconds(30))
        let lines = daemon.stderr.split(separator: "\n").filter { $0.contains("disconnected") }
        #expect(lines.count >= 3, "\(daemon.stderr)")
        for line in lines { #expect(line.hasPrefix("<7>"), "\(line)") }
    }
}
