@testable import FoldcamPlatform
import Glibc
import Testing

/// `SafeFile` and `DirectorySafety` against real files: what another user could put in or
/// above a directory of the daemon's is refused, never followed, never waited on.
@Suite struct SafeFileTests {
    @Test func readRefusesWhatIsNotTheDaemonsOwnFile() throws {
        let directory = try RealCallTests.temporaryDirectory()
        defer { _ = Glibc.system("rm -rf '\(directory)'") }
        #expect(throws: SafeFile.ReadError.missing) { try SafeFile.read(directory: directory, name: "absent", limit: 100) }
        #expect(mkfifo(directory + "/fifo", 0o644) == 0)
        #expect(throws: SafeFile.ReadError.untrusted("is not a regular file")) { try SafeFile.read(directory: directory, name: "fifo", limit: 100) }
        #expect(symlink("/etc/hostname", directory + "/link") == 0)
        #expect(throws: SafeFile.ReadError.untrusted("is a symbolic link")) { try SafeFile.read(directory: directory, name: "link", limit: 100) }
        try SafeFile.replace(Array("mine".utf8), directory: directory, name: "file")
        #expect(try SafeFile.read(directory: directory, name: "file", limit: 100) == Array("mine".utf8))
        #expect(link(directory + "/file", directory + "/second") == 0)
        #expect(throws: SafeFile.ReadError.untrusted("has 2 links (a file the daemon writes has one)")) { try SafeFile.read(directory: directory, name: "file", limit: 100) }
    }

    /// `foldcamctl calibrate` makes the local models directory the package does not ship.
    @Test func directoryCreateMakesOneLevelOnceAndRefusesAFileInTheWay() throws {
        let directory = try RealCallTests.temporaryDirectory()
        defer { _ = Glibc.system("rm -rf '\(directory)'") }
        try Directory.create(directory + "/models.d")
        try Directory.create(directory + "/models.d")
        #expect(PathKind.of(directory + "/models.d") == .directory)
        try SafeFile.replace(Array("x".utf8), directory: directory, name: "file")
        #expect(throws: SystemCallError.self) { try Directory.create(directory + "/file") }
        #expect(throws: SystemCallError.self) { try Directory.create(directory + "/absent/models.d") }
    }

    @Test func replaceWritesANewFileWithTheModeAndLeavesNoTemporary() throws {
        let directory = try RealCallTests.temporaryDirectory()
        defer { _ = Glibc.system("rm -rf '\(directory)'") }
        // A FIFO where the old writer put its temporary file waits for nobody now.
        #expect(mkfifo(directory + "/.state.json.\(getpid()).tmp", 0o644) == 0)
        try SafeFile.replace(Array("one".utf8), directory: directory, name: "state.json", mode: 0o640, durable: true)
        try SafeFile.replace(Array("two".utf8), directory: directory, name: "state.json", mode: 0o640, durable: true)
        var status = stat()
        #expect(lstat(directory + "/state.json", &status) == 0 && status.st_mode & 0o7777 == 0o640 && status.st_nlink == 1)
        #expect(try SafeFile.read(directory: directory, name: "state.json", limit: 100) == Array("two".utf8))
        #expect(Directory.names(in: directory).sorted() == [".state.json.\(getpid()).tmp", "state.json"])
    }

    /// A write that fails half way (a full disk in e2e check 96; here a directory in the way of
    /// the rename) throws and takes its temporary file with it: nothing accumulates.
    @Test func aFailedReplaceLeavesNoTemporary() throws {
        let directory = try RealCallTests.temporaryDirectory()
        defer { _ = Glibc.system("rm -rf '\(directory)'") }
        #expect(mkdir(directory + "/state.json", 0o700) == 0 && mkdir(directory + "/state.json/kept", 0o700) == 0)
        #expect(throws: SystemCallError.self) { try SafeFile.replace(Array("one".utf8), directory: directory, name: "state.json", durable: true) }
        #expect(Directory.names(in: directory) == ["state.json"])
    }

    @Test func directoriesAreCheckedAlongTheWholePath() throws {
        let directory = try RealCallTests.temporaryDirectory()
        defer { _ = Glibc.system("rm -rf '\(directory)'") }
        #expect(DirectorySafety.check(directory).refusal == nil, "\(DirectorySafety.check(directory))")
        let open = directory + "/open"
        #expect(mkdir(open, 0o777) == 0 && chmod(open, 0o777) == 0)
        #expect(DirectorySafety.check(open).refusal?.contains("writable by every user") == true)
        #expect(mkdir(open + "/below", 0o755) == 0)
        #expect(DirectorySafety.check(open + "/below").refusal?.contains("without the sticky bit") == true, "a parent others may write to")
        #expect(chmod(open, 0o1777) == 0)
        #expect(DirectorySafety.check(open + "/below").refusal == nil, "a sticky parent, as /tmp")
        #expect(symlink(open, directory + "/via") == 0)
        #expect(DirectorySafety.check(directory + "/via").refusal?.contains("writable by every user") == true, "a link's target is checked")
        let grouped = directory + "/grouped"
        #expect(mkdir(grouped, 0o775) == 0 && chmod(grouped, 0o775) == 0)
        let verdict = DirectorySafety.check(grouped)
        #expect(verdict.refusal == nil && verdict.warnings.first?.contains("writable by its group") == true, "\(verdict)")
        if getuid() == 0 {
            #expect(chown(open + "/below", 65534, 65534) == 0)
            #expect(mkdir(open + "/below/deeper", 0o755) == 0)
            #expect(DirectorySafety.check(open + "/below/deeper").refusal?.contains("belongs to uid 65534") == true)
        }
    }
}
