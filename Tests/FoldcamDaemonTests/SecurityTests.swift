import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// docs/security.md, rule by rule, tried as a local user with no special rights (uid 65534
/// through setpriv). Each test fails if its rule breaks.
@Suite("foldcamd security rules")
struct SecurityTests {
    /// `users` (gid 100) exists on every Debian system (base-passwd).
    static let controlGroup = (name: "users", id: UInt32(100))

    // MARK: Frames are a camera permission

    @Test("snapshot is forbidden to a user outside the groups, naming the group that grants it; directions and state stay readable")
    func framesForbiddenToOthers() throws {
        try #require(OtherUser.available, "needs root to run a client as another user (setpriv); CI runs as root")
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "group": "users"}"#)
        let script = try OtherUser.script(OtherUser.requestsScript, named: "client.pl", in: daemon.directory)
        let requests = [
            #"{"id": 1, "method": "snapshot"}"#,
            #"{"id": 2, "method": "directions", "params": {"display": "outer"}}"#,
            #"{"id": 3, "method": "state"}"#,
        ]
        let stranger = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath] + requests, in: daemon.directory, name: "stranger")
        #expect(stranger.exitCode(timeout: .seconds(30)) == 0, "client failed: \(stranger.stderr)")
        let replies = OtherUser.replies(stranger)
        try #require(replies.count == 3, "replies: \(stranger.stdout)")
        #expect(replies[0][path: "error", "code"] == .string("forbidden"))
        let message = replies[0][path: "error", "message"]?.stringValue ?? ""
        #expect(message.contains("camera frames") && message.contains("group users"), "the refusal names the group that grants frames: \(message)")
        #expect(replies[0][path: "result"] == nil, "no frame in a refusal")
        #expect(replies[1][path: "result", "display"] == .string("outer"))
        #expect(replies[2][path: "result", "rig"] == .string("duo"))

        // The same user in the group receives the frame: the rule is the group, not the uid.
        let member = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath, requests[0]], in: daemon.directory, name: "member", groups: [Self.controlGroup.id])
        #expect(member.exitCode(timeout: .seconds(30)) == 0, "client failed: \(member.stderr)")
        let png = OtherUser.replies(member).first?[path: "result", "png"]?.stringValue ?? ""
        #expect(png.hasPrefix("iVBORw0KGgo"), "a member of group users gets a PNG (base64 of the PNG signature): \(member.stdout.prefix(300))")
    }

    @Test("without a control group, only root and the daemon's user receive frames")
    func framesWithoutGroup() throws {
        try #require(OtherUser.available, "needs root (setpriv)")
        let daemon = try RunningDaemon()
        let script = try OtherUser.script(OtherUser.requestsScript, named: "client.pl", in: daemon.directory)
        let stranger = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath, #"{"id": 1, "method": "snapshot"}"#], in: daemon.directory, name: "stranger", groups: [Self.controlGroup.id])
        #expect(stranger.exitCode(timeout: .seconds(30)) == 0, "client failed: \(stranger.stderr)")
        #expect(OtherUser.replies(stranger).first?[path: "error", "code"] == .string("forbidden"), "\(stranger.stdout)")
        let root = try daemon.connect()
        #expect(try root.result("snapshot")["png"]?.stringValue?.isEmpty == false, "root (the daemon's user here) gets the frame")
    }

    @Test("state shows who holds a pin (uid, pid, command) only to peers that may pin; others see the pin and its display")
    func pinOwnersOnlyForControl() throws {
        try #require(OtherUser.available, "needs root (setpriv)")
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "group": "users"}"#)
        let kiosk = try daemon.connect()
        _ = try kiosk.result("pinView", .params(("display", .string("outer"))))
        let script = try OtherUser.script(OtherUser.requestsScript, named: "client.pl", in: daemon.directory)
        let request = #"{"id": 1, "method": "state"}"#
        let stranger = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath, request], in: daemon.directory, name: "stranger")
        #expect(stranger.exitCode(timeout: .seconds(30)) == 0, "client failed: \(stranger.stderr)")
        guard case let .array(seen)? = OtherUser.replies(stranger).first?[path: "result", "pins"], let pin = seen.first else {
            throw HarnessError("no pins in \(stranger.stdout)")
        }
        #expect(pin["display"] == .string("outer") && pin["inForce"] == .bool(true), "\(pin)")
        #expect(pin["pid"] == nil && pin["command"] == nil && pin["uid"] == nil, "a stranger sees the owner: \(pin)")

        let member = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath, request], in: daemon.directory, name: "member", groups: [Self.controlGroup.id])
        #expect(member.exitCode(timeout: .seconds(30)) == 0, "client failed: \(member.stderr)")
        guard case let .array(shown)? = OtherUser.replies(member).first?[path: "result", "pins"], let owned = shown.first else {
            throw HarnessError("no pins in \(member.stdout)")
        }
        #expect(owned["pid"]?.numberValue == Double(getpid()) && owned["uid"]?.numberValue == 0, "the control group sees the owner: \(owned)")
    }

    // MARK: The daemon writes no path a client names

    @Test("snapshot refuses a path: no file is created, and the image comes back in the reply")
    func snapshotWritesNoPath() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()
        let target = daemon.directory.file("chosen-by-client.png")
        let refused = try client.call("snapshot", .params(("path", .string(target))))
        #expect(refused[path: "error", "code"] == .string("invalidParams"))
        #expect(refused[path: "error", "message"]?.stringValue?.contains("writes no file") == true, "\(refused)")
        // A FIFO where a client points would have blocked the old snapshot worker forever.
        let fifo = daemon.directory.file("fifo.png")
        #expect(mkfifo(fifo, 0o666) == 0)
        #expect(try client.call("snapshot", .params(("path", .string(fifo)), ("inline", .bool(false))))[path: "error", "code"] == .string("invalidParams"))
        #expect(try client.call("snapshot", .params(("inline", .bool(true))))[path: "error", "message"]?.stringValue?.contains("writes no file") == true)
        let snapshot = try client.result("snapshot")
        #expect(snapshot["path"] == nil)
        #expect(snapshot["png"]?.stringValue?.isEmpty == false)
        #expect(access(target, F_OK) != 0, "the daemon created \(target)")
        // Later snapshots are still answered: nothing waits on the FIFO.
        #expect(try client.result("snapshot")["png"] != nil)
    }

    // MARK: No peer can lock others out

    @Test("an unprivileged user holds at most maxClientsPerUser connections and never the reserved slots; root still gets in")
    func noLockOut() throws {
        try #require(OtherUser.available, "needs root (setpriv)")
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "maxClients": 8, "reservedClients": 2, "maxClientsPerUser": 4}"#)
        let script = try OtherUser.script(OtherUser.holderScript, named: "holder.pl", in: daemon.directory)
        let first = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath, "5"], in: daemon.directory, name: "first")
        defer { first.kill(SIGKILL); _ = first.waitForExit(timeout: .seconds(10)) }
        #expect(OtherUser.waitForOutput(first, "holding"), "holder: \(first.stdout) \(first.stderr)")
        let firstReplies = OtherUser.replies(first)
        try #require(firstReplies.count == 5, "\(first.stdout)")
        #expect(firstReplies[0..<4].allSatisfy { $0[path: "result", "rig"] == .string("duo") }, "\(first.stdout)")
        #expect(firstReplies[4][path: "error", "code"] == .string("tooManyClients"))
        #expect(firstReplies[4][path: "error", "message"]?.stringValue?.contains("maxClientsPerUser") == true, "the refusal names the limit: \(firstReplies[4])")

        // Another unprivileged user gets what is left of the 6 unreserved slots: 2.
        let second = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath, "3"], in: daemon.directory, name: "second", uid: 65533)
        defer { second.kill(SIGKILL); _ = second.waitForExit(timeout: .seconds(10)) }
        #expect(OtherUser.waitForOutput(second, "holding"), "holder: \(second.stdout) \(second.stderr)")
        let secondReplies = OtherUser.replies(second)
        try #require(secondReplies.count == 3, "\(second.stdout)")
        #expect(secondReplies[2][path: "error", "code"] == .string("tooManyClients"))
        #expect(secondReplies[2][path: "error", "message"]?.stringValue?.contains("reservedClients") == true, "\(secondReplies[2])")

        // Root takes the reserved slots.
        let root = try daemon.connect()
        #expect(try root.result("hello")["rig"] == .string("duo"))
        let root2 = try daemon.connect()
        #expect(try root2.result("state")["rig"] == .string("duo"))
        #expect(daemon.waitForLog("maxClientsPerUser"), "the refusal is logged")
    }

    @Test("a client that never sends a request, or leaves a line half-sent (a byte at a time), is closed after requestTimeoutSeconds; subscribers stay")
    func requestDeadlines() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "requestTimeoutSeconds": 1}"#)
        let subscriber = try daemon.connect()
        #expect(try subscriber.result("subscribe", .params(("topics", .array([.string("posture")]))))["topics"] != nil)
        _ = try subscriber.nextEvent()

        let silent = try daemon.connect()
        let closing = try silent.readMessage(timeout: .seconds(30))
        #expect(closing[path: "error", "code"] == .string("timeout"), "\(closing)")
        #expect(closing[path: "error", "message"]?.stringValue?.contains("requestTimeoutSeconds") == true)
        #expect(silent.waitUntilClosed(timeout: .seconds(30)))

        // Slow loris: one byte every 50 ms of a line that never ends. The deadline runs from the
        // first byte, so the daemon closes the connection even though bytes keep coming.
        let loris = try daemon.connect()
        let deadline = ContinuousClock.now + .seconds(60)
        var sent = 0
        var closedByDaemon = false
        while ContinuousClock.now < deadline {
            if !loris.sendBytes([UInt8(ascii: " ")], timeout: .seconds(5)) || loris.readAvailable() == .closed {
                closedByDaemon = true
                break
            }
            sent += 1
            usleep(50_000)
        }
        #expect(closedByDaemon, "still open after \(sent) bytes over 60 s")

        // The subscriber that had spoken is still served.
        #expect(try subscriber.result("hello")["rig"] == .string("duo"))
    }

    // MARK: Sockets are where only their owner can put them

    @Test("a user's daemon without XDG_RUNTIME_DIR or --socket refuses to start, saying why (never /tmp)")
    func noSharedFallback() throws {
        try #require(OtherUser.available, "needs root (setpriv)")
        let directory = try TemporaryDirectory()
        let daemon = try OtherUser.start("/usr/bin/env", ["-u", "XDG_RUNTIME_DIR", "-u", "FOLDCAM_SOCKET", try Executables.path(of: "foldcamd"), "--simulate", "--quiet"], in: directory, name: "daemon")
        let code = daemon.exitCode(timeout: .seconds(30))
        #expect(code != nil && code != 0, "the daemon started: \(daemon.stderr)")
        #expect(daemon.stderr.contains("XDG_RUNTIME_DIR is not set"), "\(daemon.stderr)")
        #expect(access("/tmp/foldcam.sock", F_OK) != 0 || Self.ownerOf("/tmp/foldcam.sock") != OtherUser.uid)
    }

    @Test("the daemon refuses a socket directory others can write (no sticky bit) or that another user owns")
    func refusesForeignDirectories() throws {
        let directory = try TemporaryDirectory()
        let open = directory.file("open")
        #expect(mkdir(open, 0o777) == 0 && chmod(open, 0o777) == 0)
        let inOpen = try ChildProcess(
            executable: try Executables.path(of: "foldcamd"), arguments: ["--simulate", "--quiet", "--socket", open + "/foldcam.sock"],
            stdoutPath: directory.file("open.out"), stderrPath: directory.file("open.err"))
        #expect(inOpen.exitCode(timeout: .seconds(30)) == 1)
        #expect(inOpen.stderr.contains("others may write to it") && inOpen.stderr.contains("chmod go-w"), "\(inOpen.stderr)")
        #expect(access(open + "/foldcam.sock", F_OK) != 0)

        try #require(OtherUser.available, "needs root to give a directory to another user")
        let foreign = directory.file("foreign")
        #expect(mkdir(foreign, 0o755) == 0 && chown(foreign, OtherUser.uid, OtherUser.gid) == 0)
        let inForeign = try ChildProcess(
            executable: try Executables.path(of: "foldcamd"), arguments: ["--simulate", "--quiet", "--socket", foreign + "/foldcam.sock"],
            stdoutPath: directory.file("foreign.out"), stderrPath: directory.file("foreign.err"))
        #expect(inForeign.exitCode(timeout: .seconds(30)) == 1)
        #expect(inForeign.stderr.contains("belongs to uid \(OtherUser.uid)"), "\(inForeign.stderr)")
    }

    @Test("the socket directory is checked along its whole path: a parent another user owns is refused")
    func refusesForeignParent() throws {
        try #require(OtherUser.available, "needs root to give a directory to another user")
        let directory = try TemporaryDirectory()
        let parent = directory.file("parent")
        #expect(mkdir(parent, 0o755) == 0 && chown(parent, OtherUser.uid, OtherUser.gid) == 0)
        let mine = parent + "/mine"
        #expect(mkdir(mine, 0o755) == 0)
        let daemon = try ChildProcess(
            executable: try Executables.path(of: "foldcamd"), arguments: ["--simulate", "--quiet", "--socket", mine + "/foldcam.sock"],
            stdoutPath: directory.file("daemon.out"), stderrPath: directory.file("daemon.err"))
        #expect(daemon.exitCode(timeout: .seconds(30)) == 1, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("\(parent) belongs to uid \(OtherUser.uid)"), "\(daemon.stderr)")
        #expect(access(mine + "/foldcam.sock", F_OK) != 0)
    }

    @Test("at SIGTERM the daemon removes only the socket it created, not one put at its path since")
    func unlinksOnlyItsOwnSocket() throws {
        let daemon = try RunningDaemon()
        // Another socket takes the path (its creator removed the daemon's and bound its own).
        #expect(unlink(daemon.socketPath) == 0)
        let other = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(other) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(daemon.socketPath.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(other, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(daemon.stop() == 0)
        #expect(access(daemon.socketPath, F_OK) == 0, "the daemon removed a socket it did not create")
    }

    @Test("foldcamctl refuses a server running as another user (a squatter's fake daemon)")
    func clientDetectsImpostor() throws {
        try #require(OtherUser.available, "needs root (setpriv)")
        let directory = try TemporaryDirectory()
        let squat = directory.file("squat")
        #expect(mkdir(squat, 0o755) == 0 && chown(squat, OtherUser.uid, OtherUser.gid) == 0)
        let script = try OtherUser.script(OtherUser.impostorScript, named: "impostor.pl", in: directory)
        let impostor = try OtherUser.start("/usr/bin/perl", [script, squat + "/foldcam.sock"], in: directory, name: "impostor")
        defer { impostor.kill(SIGKILL); _ = impostor.waitForExit(timeout: .seconds(10)) }
        #expect(OtherUser.waitForOutput(impostor, "listening"), "\(impostor.stderr)")
        let control = try ChildProcess(
            executable: try Executables.path(of: "foldcamctl"), arguments: ["--socket", squat + "/foldcam.sock", "status"],
            stdoutPath: directory.file("ctl.out"), stderrPath: directory.file("ctl.err"))
        let code = control.exitCode(timeout: .seconds(30))
        #expect(code != nil && code != 0, "foldcamctl trusted the impostor: \(control.stdout)")
        #expect(control.stderr.contains("uid \(OtherUser.uid)") && control.stderr.contains("impersonating"), "\(control.stderr)")
        #expect(!control.stdout.contains("fake"), "nothing the impostor said is shown: \(control.stdout)")
    }

    // MARK: Logs cannot be forged or flooded

    @Test("client text in logs and replies is escaped and bounded; bad-request log lines are rate-limited")
    func logsCannotBeForged() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "logLevel": "debug"}"#)
        let client = try daemon.connect()
        let forged = try client.call("pinVeiw\n<0>forged record")
        #expect(forged[path: "error", "code"] == .string("unknownMethod"))
        #expect(forged[path: "error", "message"]?.stringValue?.contains(#""pinVeiw\n<0>forged record""#) == true, "\(forged)")
        let huge = String(repeating: "A", count: 60_000)
        let flood = try client.call(huge)
        let message = flood[path: "error", "message"]?.stringValue ?? ""
        #expect(message.utf8.count < 400 && message.contains("60000 bytes"), "reply echoes \(message.utf8.count) bytes")
        // Twenty more bad requests: the client's log budget holds all but a few back.
        for _ in 0..<20 { _ = try client.call("nonsense") }
        #expect(try client.result("hello")["rig"] == .string("duo"))
        #expect(daemon.waitForLog("held back"), "\(daemon.stderr)")
        let lines = daemon.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.contains("forged record") && !$0.contains("pinVeiw") }, "a newline in a method started a log record of its own")
        #expect(!lines.contains { $0.hasPrefix("<0>") })
        let about = lines.filter { $0.contains("client 1 called") }
        #expect(about.count <= 5, "\(about.count) log lines for one client's bad requests")
        #expect(lines.allSatisfy { $0.utf8.count < 1000 }, "a log line longer than 1000 bytes")
    }

    static func ownerOf(_ path: String) -> UInt32? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_uid : nil
    }
}
