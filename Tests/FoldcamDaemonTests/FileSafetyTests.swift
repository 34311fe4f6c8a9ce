import FoldcamCore
import FoldcamPlatform
import FoldcamTestSupport
import Glibc
import Testing

/// docs/security.md, "Files the daemon keeps": nothing another user puts in or above the state
/// and metrics directories can block the daemon, redirect its files or be taken for its own.
@Suite("foldcamd opens its own files safely")
struct FileSafetyTests {
    static func stateConfig(_ state: String, extra: String = "") -> String {
        #"{"rig": "duo", "stateDirectory": "\#(state)"\#(extra)}"#
    }

    @Test("a FIFO as state.json is set aside and the daemon serves; a pin is then saved and SIGTERM finishes")
    func fifoStateFile() throws {
        let directory = try TemporaryDirectory()
        let state = directory.file("state")
        #expect(mkdir(state, 0o755) == 0)
        #expect(mkfifo(state + "/state.json", 0o644) == 0)
        let daemon = try RunningDaemon(config: Self.stateConfig(state), directory: directory)
        #expect(daemon.stderr.contains("state.json is not a regular file"), "\(daemon.stderr)")
        #expect(Self.kind(state + "/state.json.bad") == S_IFIFO, "the FIFO is kept aside")
        // FIFOs at every name the old writer would have used as its temporary file.
        #expect(mkfifo(state + "/.state.json.\(daemon.pid).tmp", 0o644) == 0)
        let client = try daemon.connect()
        _ = try client.result("pinView", .params(("display", .string("outer")), ("persist", .bool(true))))
        let deadline = ContinuousClock.now + .seconds(20)
        while !readTextFile(state + "/state.json").contains("outer") && ContinuousClock.now < deadline { usleep(10_000) }
        #expect(readTextFile(state + "/state.json").contains("\"display\": \"outer\""))
        #expect(daemon.stop(timeout: .seconds(20)) == 0, "SIGTERM finished")
    }

    @Test("a state file another user wrote (a forged pin by uid 0) is refused and set aside")
    func foreignStateFile() throws {
        try #require(OtherUser.available, "needs root to give a file to another user")
        let directory = try TemporaryDirectory()
        let state = directory.file("state")
        #expect(mkdir(state, 0o755) == 0)
        try directory.write("state/state.json", #"{"version": 1, "pin": {"display": "outer", "uid": 0, "pid": 1, "command": "forged"}}"#)
        #expect(chown(state + "/state.json", OtherUser.uid, OtherUser.gid) == 0)
        let daemon = try RunningDaemon(config: Self.stateConfig(state), directory: directory)
        #expect(daemon.stderr.contains("belongs to uid \(OtherUser.uid)"), "\(daemon.stderr)")
        #expect(try daemon.connect().result("state")["pinnedDisplay"] == .null, "the forged pin was restored")
        #expect(access(state + "/state.json.bad", F_OK) == 0)
    }

    @Test("a hard link as state.json is refused: a file the daemon wrote has one link")
    func linkedStateFile() throws {
        let directory = try TemporaryDirectory()
        let state = directory.file("state")
        #expect(mkdir(state, 0o755) == 0)
        try directory.write("elsewhere.json", #"{"version": 1, "pin": {"display": "outer", "uid": 0, "pid": 1, "command": "linked"}}"#)
        #expect(link(directory.file("elsewhere.json"), state + "/state.json") == 0)
        let daemon = try RunningDaemon(config: Self.stateConfig(state), directory: directory)
        #expect(daemon.stderr.contains("has 2 links"), "\(daemon.stderr)")
        #expect(try daemon.connect().result("state")["pinnedDisplay"] == .null)
    }

    @Test("a FIFO at the metrics writer's old temporary name blocks nothing: the daemon answers and foldcam.prom is rewritten")
    func fifoAtMetricsTemporary() throws {
        let directory = try TemporaryDirectory()
        let metrics = directory.file("metrics")
        #expect(mkdir(metrics, 0o755) == 0)
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "metricsDirectory": "\#(metrics)", "metricsIntervalSeconds": 1}"#, directory: directory)
        let file = metrics + "/foldcam.prom"
        let written = ContinuousClock.now + .seconds(20)
        while access(file, F_OK) != 0 && ContinuousClock.now < written { usleep(10_000) }
        #expect(mkfifo(metrics + "/.foldcam.prom.\(daemon.pid).tmp", 0o644) == 0)
        #expect(unlink(file) == 0)
        // The next write (within a second) creates the file again; the daemon answers meanwhile.
        let rewritten = ContinuousClock.now + .seconds(20)
        while access(file, F_OK) != 0 && ContinuousClock.now < rewritten { usleep(10_000) }
        #expect(access(file, F_OK) == 0, "foldcam.prom was not written again")
        #expect(try daemon.connect().call("hello", timeout: .seconds(20))[path: "result", "rig"] == .string("duo"))
        #expect(daemon.stop(timeout: .seconds(20)) == 0)
    }

    @Test("a metrics directory below one another user owns is refused (its owner could swap it), and --check-config --strict reports it and 0777 directories")
    func unsafeDirectories() throws {
        try #require(OtherUser.available, "needs root to give a directory to another user")
        let directory = try TemporaryDirectory()
        let foreign = directory.file("foreign")
        #expect(mkdir(foreign, 0o755) == 0 && chown(foreign, OtherUser.uid, OtherUser.gid) == 0)
        let metrics = foreign + "/metrics"
        #expect(mkdir(metrics, 0o755) == 0)
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "metricsDirectory": "\#(metrics)", "metricsIntervalSeconds": 1}"#, directory: directory)
        #expect(daemon.waitForLog("belongs to uid \(OtherUser.uid)", timeout: .seconds(20)), "\(daemon.stderr)")
        #expect(access(metrics + "/foldcam.prom", F_OK) != 0, "the daemon wrote below a directory another user owns")

        let open = directory.file("open")
        let openState = directory.file("openState")
        for path in [open, openState] { #expect(mkdir(path, 0o777) == 0 && chmod(path, 0o777) == 0) }
        try directory.write("check.json", #"{"rig": "duo", "metricsDirectory": "\#(open)", "stateDirectory": "\#(openState)"}"#)
        let check = try CheckConfigTests.check(["--config", directory.file("check.json"), "--strict"], in: directory)
        #expect(check.code == 2, "\(check.stderr)")
        #expect(check.stderr.contains("metricsDirectory \(open) is not safe") && check.stderr.contains("stateDirectory \(openState) is not safe"), "\(check.stderr)")
        #expect(check.stderr.contains("chmod o-w"), "\(check.stderr)")
    }

    @Test("a full disk under the state and metrics directories: the daemon serves, says why nothing is saved, leaves no temporary file, and writes again once there is room")
    func fullDisk() throws {
        try #require(OtherUser.available, "needs root to mount a small tmpfs")
        let directory = try TemporaryDirectory()
        let disk = directory.file("disk")
        #expect(mkdir(disk, 0o755) == 0)
        try #require(mount("tmpfs", disk, "tmpfs", 0, "size=256k,mode=0755") == 0, "mount: \(String(cString: strerror(errno)))")
        defer { umount2(disk, Int32(MNT_DETACH)) }
        let (state, metrics) = (disk + "/state", disk + "/metrics")
        #expect(mkdir(state, 0o755) == 0 && mkdir(metrics, 0o755) == 0)
        // Fill the disk.
        let filler = open(disk + "/filler", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)  // not inherited by the daemon
        let block = [UInt8](repeating: 0x55, count: 4096)
        while block.withUnsafeBytes({ write(filler, $0.baseAddress, $0.count) }) > 0 {}
        let daemon = try RunningDaemon(config: Self.stateConfig(state, extra: #", "metricsDirectory": "\#(metrics)", "metricsIntervalSeconds": 1"#), directory: directory)
        let client = try daemon.connect()
        _ = try client.result("pinView", .params(("display", .string("outer")), ("persist", .bool(true))))
        #expect(daemon.waitForLog("state: cannot write \(state)/state.json", timeout: .seconds(20)), "\(daemon.stderr)")
        #expect(daemon.waitForLog("cannot write \(metrics)/foldcam.prom", timeout: .seconds(20)), "\(daemon.stderr)")
        #expect(try client.result("hello")["rig"] == .string("duo"), "the daemon serves on a full disk")
        #expect(Directory.names(in: state).isEmpty && Directory.names(in: metrics).isEmpty, "temporary files left: \(Directory.names(in: state)) \(Directory.names(in: metrics))")

        // Room again: the next change is saved, and the metrics file appears.
        close(filler)
        #expect(unlink(disk + "/filler") == 0)
        // The room comes back once no process holds the filler: a child another test is just
        // spawning may hold this process's descriptors until its exec.
        #expect(Self.waitForRoom(on: disk, blocks: 32, timeout: .seconds(20)), "the tmpfs stayed full after the filler was removed")
        _ = try client.result("setScreenRotation", .params(("display", .string("inner")), ("rotation", .int(90))))
        let deadline = ContinuousClock.now + .seconds(20)
        while !(readTextFile(state + "/state.json").contains("\"inner\": 90") && access(metrics + "/foldcam.prom", F_OK) == 0) && ContinuousClock.now < deadline { usleep(10_000) }
        #expect(readTextFile(state + "/state.json").contains("\"display\": \"outer\""), "\(daemon.stderr)")
        #expect(access(metrics + "/foldcam.prom", F_OK) == 0)
        #expect(daemon.stop(timeout: .seconds(20)) == 0)
    }

    /// Whether `path`'s file system has `blocks` free blocks within `timeout`.
    static func waitForRoom(on path: String, blocks: UInt, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var info = statvfs()
        while ContinuousClock.now < deadline {
            if statvfs(path, &info) == 0 && info.f_bavail >= blocks { return true }
            usleep(10_000)
        }
        return false
    }

    static func kind(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }
}
