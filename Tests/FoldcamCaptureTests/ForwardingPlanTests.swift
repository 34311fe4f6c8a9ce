@testable import FoldcamCapture
import FoldcamCore
import Testing

/// Which forwarding path runs and why, and who holds the loopback's mapped buffers: the
/// decisions behind zero-copy, without a kernel (the guest's check 88b proves the path itself).
@Suite struct ForwardingPlanTests {
    @Test func theConfigAndAMirrorRuleZeroCopyOutBeforeTheDriverIsAsked() {
        #expect(ForwardingPlan.outputPath(setting: .auto, mirror: false) == .zeroCopy)
        #expect(ForwardingPlan.outputPath(setting: .copy, mirror: false) == .copy(.configured))
        #expect(ForwardingPlan.outputPath(setting: .auto, mirror: true) == .copy(.mirrored))
        #expect(ForwardingPlan.outputPath(setting: .copy, mirror: true) == .copy(.configured))
    }

    @Test func v4l2loopbacksDefaultTwoBuffersAreTooFewAndTheMessageSaysWhatToLoad() {
        let path = ForwardingPlan.outputPath(granted: 2)
        #expect(path == .copy(.tooFewLoopbackBuffers(granted: 2, needed: 4)))
        #expect("\(path)".contains("max_buffers=4"))
        #expect(ForwardingPlan.outputPath(granted: 3) != .zeroCopy)
        #expect(ForwardingPlan.outputPath(granted: 4) == .zeroCopy)
        #expect(ForwardingPlan.wantedLoopbackBuffers == 4)
    }

    @Test func aCameraFrameMustFitAPageAsItIs() {
        // 640x480 YUYV: 1280 bytes a line, 614400 a frame, in a page-aligned 614400-byte buffer.
        #expect(ForwardingPlan.layoutFits(cameraBytesPerLine: 1280, cameraFrameBytes: 614_400, loopbackBytesPerLine: 1280, loopbackBufferBytes: 614_400) == nil)
        let padded = ForwardingPlan.layoutFits(cameraBytesPerLine: 1344, cameraFrameBytes: 645_120, loopbackBytesPerLine: 1280, loopbackBufferBytes: 614_400)
        #expect("\(padded.map { "\($0)" } ?? "")".contains("line stride 1344"))
        let larger = ForwardingPlan.layoutFits(cameraBytesPerLine: 1280, cameraFrameBytes: 700_000, loopbackBytesPerLine: 1280, loopbackBufferBytes: 614_400)
        #expect("\(larger.map { "\($0)" } ?? "")".contains("700000 bytes"))
    }

    @Test func aStreamGetsTwoPagesAndTwoStayForTheDaemonsOwnFrames() {
        var book = LoopbackPageBook(count: 4)
        book.show(0)  // the idle frame
        #expect(book.lend(to: 1) == .success([1, 2]))
        #expect(book.pageForOwnFrame() == 3)
        // A second camera (pre-warm) would leave no page to fill an own frame into.
        #expect(book.lend(to: 2) == .failure(.buffersLent))
        #expect(book.owners == [.free, .lent(stream: 1), .lent(stream: 1), .free])
    }

    /// A switch with v4l2loopback's 4 buffers: the next camera starts on its own buffers while
    /// the old one holds two; once the old one stopped, the pages are free again (the shown one
    /// excepted) and the new camera is reopened into them.
    @Test func aRetiredStreamsPagesWaitForItsStopAndTheShownOneIsNeverFilled() {
        var book = LoopbackPageBook(count: 4)
        #expect(book.lend(to: 1) == .success([0, 1]))
        book.show(1)
        #expect(book.lend(to: 2) == .failure(.buffersLent))
        // The old one is handed over to stop; its last frame, copied, shows from page 2.
        book.retire(stream: 1)
        #expect(book.owners == [.returning(stream: 1), .returning(stream: 1), .free, .free])
        #expect(book.pageForOwnFrame() == 2)
        book.show(2)
        // Until STREAMOFF and REQBUFS 0 are done the driver may still write pages 0 and 1.
        #expect(book.lend(to: 3) == .failure(.buffersLent))
        #expect(book.pageForOwnFrame() == 3)
        book.stopped(stream: 1)
        #expect(book.lend(to: 3) == .success([0, 1]))
        #expect(book.pageForOwnFrame() == 3)
    }

    @Test func theShownPageIsNeverLent() {
        var book = LoopbackPageBook(count: 4)
        book.show(0)
        #expect(book.lend(to: 1) == .success([1, 2]))
        book.show(1)
        book.retire(stream: 1)
        book.stopped(stream: 1)
        // Page 1 is free but shown: lent last, never filled until another page shows.
        #expect(book.pageForOwnFrame() == 0)
        #expect(book.lend(to: 2) == .success([0, 2]))
        #expect(book.pageForOwnFrame() == 3)
    }

    @Test func pagesOfAnOpenTheCameraRefusedAreFreeAgain() {
        var book = LoopbackPageBook(count: 4)
        #expect(book.lend(to: 7) == .success([0, 1]))
        book.cancel(stream: 7)
        #expect(book.owners == Array(repeating: .free, count: 4))
        // Cancelling a stream that holds nothing changes nothing.
        book.cancel(stream: 8)
        #expect(book.lend(to: 9) == .success([0, 1]))
    }

    @Test func theConfigSwitchIsValidatedWithTheNearestName() throws {
        #expect(try DaemonConfig.decode(json: #"{"virtualCameraForwarding": "copy"}"#).virtualCameraForwarding == .copy)
        #expect(try DaemonConfig.decode(json: "{}").virtualCameraForwarding == .auto)
        do {
            _ = try DaemonConfig.decode(json: #"{"virtualCameraForwarding": "cpy"}"#)
            Issue.record("expected an error")
        } catch {
            let text = error.errors.map { "\($0)" }.joined()
            #expect(text.contains("virtualCameraForwarding") && text.contains("did you mean \"copy\"") && text.contains("auto, copy"))
        }
    }
}
