@testable import FoldcamPlatform
import Glibc
import Testing

/// The funnel's rules, on calls whose failures the test controls.
@Suite struct SyscallTests {
    @Test func interruptedCallsAreRetriedUntilTheyAnswer() throws {
        var calls = 0
        let result = try Syscall.check("fake") { () -> Int32 in
            calls += 1
            if calls < 3 { errno = EINTR; return -1 }
            return 42
        }
        #expect(result == 42)
        #expect(calls == 3)
    }

    @Test func withoutRetryAnInterruptIsThrown() {
        var calls = 0
        #expect(throws: SystemCallError("fake", .interrupted)) {
            try Syscall.check("fake", retryOnInterrupt: false) { () -> Int32 in
                calls += 1
                errno = EINTR
                return -1
            }
        }
        #expect(calls == 1)
    }

    @Test func failuresCarryTheCallTheErrorAndTheSubject() {
        #expect(throws: SystemCallError("VIDIOC_S_FMT", .busy, subject: "/dev/video3")) {
            try Syscall.check("VIDIOC_S_FMT", subject: "/dev/video3") { () -> Int32 in errno = EBUSY; return -1 }
        }
        #expect(SystemCallError("VIDIOC_S_FMT", .busy, subject: "/dev/video3").description == "/dev/video3: VIDIOC_S_FMT failed: Device or resource busy")
        #expect(SystemCallError("connect", .connectionRefused).description == "connect: Connection refused")
    }

    @Test func openingWhatIsMissingNamesThePath() {
        let path = "/nonexistent/foldcam-\(getpid())"
        do {
            _ = try FileDescriptor.open(path, .readOnly)
            Issue.record("opened \(path)")
        } catch {
            #expect(error.errno == .noEntry)
            #expect(error.description == "\(path): open failed: No such file or directory")
        }
    }

    @Test func aBadDescriptorIsAProgrammingErrorNotAnError() async {
        await #expect(processExitsWith: .failure) {
            var byte: UInt8 = 0
            _ = try? withUnsafeMutableBytes(of: &byte) { try Syscall.read(-1, into: $0) }
        }
    }
}

/// The one definition of "the device vanished".
@Suite struct VanishedTests {
    @Test(arguments: [ENODEV, ENXIO, EIO, ENOENT])
    func goneDevicesAnswerWith(_ code: Int32) {
        #expect(Errno(rawValue: code).meansDeviceVanished)
        #expect(SystemCallError("read", Errno(rawValue: code), subject: "/dev/video0").deviceVanished)
    }

    @Test(arguments: [EBUSY, EINVAL, EAGAIN, EACCES, ENOTTY, EPIPE])
    func presentDevicesAnswerWith(_ code: Int32) {
        #expect(!Errno(rawValue: code).meansDeviceVanished)
    }

    @Test func busyIsItsOwnCondition() {
        #expect(SystemCallError("open", .busy, subject: "/dev/video0").isBusy)
        #expect(!SystemCallError("open", .busy, subject: "/dev/video0").deviceVanished)
        #expect(!SystemCallError("open", .noDevice, subject: "/dev/video0").isBusy)
    }
}
