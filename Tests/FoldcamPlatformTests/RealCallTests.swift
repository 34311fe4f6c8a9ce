@testable import FoldcamPlatform
import FoldcamIO
import Glibc
import Testing

/// The funnel against the kernel: pipes, socketpairs, temporary files.
@Suite struct RealCallTests {
    /// A fresh directory under /tmp, removed by the caller.
    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/foldcam-platform-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemCallError("mkdtemp", Errno(rawValue: errno)) }
        return String(cString: made)
    }

    /// A pipe's two ends (made here with libc: the product never needs one).
    static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw SystemCallError("pipe", Errno(rawValue: errno)) }
        return (ends[0], ends[1])
    }

    static func socketPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw SystemCallError("socketpair", Errno(rawValue: errno)) }
        return (ends[0], ends[1])
    }

    static func remove(_ directory: String) {
        for name in Directory.names(in: directory) { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    @Test func bytesCrossAPipe() throws {
        let (readEnd, writeEnd) = try Self.pipe()
        let reader = FileDescriptor(owning: readEnd)
        let writer = FileDescriptor(owning: writeEnd)
        try Array("hinge".utf8).withUnsafeBytes { try writer.writeAll($0) }
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "hinge")
    }

    @Test func anEmptyNonBlockingPipeSaysWouldBlockAndAClosedOneSaysEnd() throws {
        let (readEnd, writeEnd) = try Self.pipe()
        let reader = FileDescriptor(owning: readEnd)
        try reader.setNonBlocking()
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(throws: SystemCallError("read", .wouldBlock)) {
            try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        }
        Syscall.close(writeEnd)
        #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == 0)
    }

    @Test func pollSeesInputThenAHangUp() throws {
        let (readEnd, writeEnd) = try Self.pipe()
        let reader = FileDescriptor(owning: readEnd)
        let writer = FileDescriptor(owning: writeEnd)
        var set = PollSet()
        set.append(reader.rawValue)
        #expect(try set.wait(timeoutMilliseconds: 0) == 0)
        #expect(!set.events(at: 0).any)
        try [UInt8(1)].withUnsafeBytes { try writer.writeAll($0) }
        #expect(try set.wait(timeoutMilliseconds: -1) == 1)
        #expect(set.events(at: 0).readable)
        #expect(!set.events(at: 0).failed)
        writer.close()
        var drain = [UInt8](repeating: 0, count: 4)
        _ = try drain.withUnsafeMutableBytes { try reader.read(into: $0) }
        #expect(try set.wait(timeoutMilliseconds: -1) == 1)
        #expect(set.events(at: 0).failed)
    }

    @Test func aSocketPairCarriesBothWaysAndADeadPeerIsABrokenPipe() throws {
        let (a, b) = try Self.socketPair()
        let left = FileDescriptor(owning: a)
        let right = FileDescriptor(owning: b)
        #expect(try Array("ping".utf8).withUnsafeBytes { try Syscall.send(left.rawValue, from: $0) } == 4)
        var buffer = [UInt8](repeating: 0, count: 8)
        let count = try buffer.withUnsafeMutableBytes { try right.read(into: $0) }
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "ping")
        right.close()
        // MSG_NOSIGNAL: EPIPE comes back as an error, the test process is not killed.
        #expect(throws: SystemCallError("send", .brokenPipe)) {
            try Array("lost".utf8).withUnsafeBytes { try Syscall.send(left.rawValue, from: $0) }
        }
    }

    @Test func aDuplicateOutlivesTheOriginal() throws {
        let (readEnd, writeEnd) = try Self.pipe()
        let reader = FileDescriptor(owning: readEnd)
        let copy = FileDescriptor(owning: try Syscall.duplicate(writeEnd, name: "dup"))
        Syscall.close(writeEnd)
        try [UInt8(7)].withUnsafeBytes { try copy.writeAll($0) }
        var byte: UInt8 = 0
        #expect(try withUnsafeMutableBytes(of: &byte) { try reader.read(into: $0) } == 1)
        #expect(byte == 7)
    }

    @Test func wholeFilesRoundTripAndTheLimitHolds() throws {
        let directory = try Self.temporaryDirectory()
        defer { Self.remove(directory) }
        let path = directory + "/rig.json"
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
        try FileContents.replaceAtomically(bytes, directory: directory, name: "rig.json")
        #expect(try FileContents.read(path, limit: 100_000) == bytes)
        #expect(throws: FileContents.ReadError.tooLarge(limit: 99_999)) { try FileContents.read(path, limit: 99_999) }
        #expect(throws: FileContents.ReadError.failed(SystemCallError("open", .noEntry, subject: directory + "/none"))) {
            try FileContents.read(directory + "/none", limit: 10)
        }
        #expect(Directory.names(in: directory) == ["rig.json"])
    }

    @Test func attributesAreReadAndWrittenInOneCallNamingTheDevice() throws {
        let directory = try Self.temporaryDirectory()
        defer { Self.remove(directory) }
        // sysfs attributes exist before anyone writes them: writing never creates one.
        #expect(throws: SystemCallError("open in_angl0_raw for writing", .noEntry, subject: directory)) {
            try FileContents.writeAttribute(directory + "/in_angl0_raw", "90\n", subject: directory, call: "in_angl0_raw")
        }
        try FileContents.replaceAtomically([], directory: directory, name: "in_angl0_raw")
        try FileContents.writeAttribute(directory + "/in_angl0_raw", "90\n", subject: directory, call: "in_angl0_raw")
        #expect(try FileContents.readAttribute(directory + "/in_angl0_raw", subject: directory, call: "in_angl0_raw") == "90\n")
        #expect(throws: SystemCallError("open in_angl0_scale", .noEntry, subject: directory)) {
            try FileContents.readAttribute(directory + "/in_angl0_scale", subject: directory, call: "in_angl0_scale")
        }
    }

    @Test func rigFilesThatCannotBeReadAreNamed() throws {
        let directory = try Self.temporaryDirectory()
        defer { Self.remove(directory) }
        #expect(throws: RigLoader.LoadError.self) { try RigLoader.readText(directory + "/none.json", what: "rig file") }
        do {
            _ = try RigLoader.readText(directory + "/none.json", what: "rig file")
        } catch {
            #expect("\(error)" == "rig file \(directory)/none.json does not exist")
        }
        do {
            _ = try RigLoader.readText(directory, what: "config file")
        } catch {
            #expect("\(error)" == "config file \(directory) cannot be read: Is a directory")
        }
    }
}
