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

    @Test func aStreamGetsThreePagesAndOneStaysForTheDaemonsOwnFrames() {
        var book = LoopbackPageBook(count: 4)
        book.show(0)  // the idle frame
        #expect(book.lend(to: 1) == .success([1, 2, 3]))
        // The idle frame is on screen: no page to fill another own frame into until it is not.
        #expect(book.pageForOwnFrame() == nil)
        book.show(2)  // the camera's frame
        #expect(book.pageForOwnFrame() == 0)
        // A second camera (a switch, a pre-warm) would leave no page: it keeps its own buffers.
        #expect(book.lend(to: 2) == .failure(.buffersLent))
        #expect(book.owners == [.free, .lent(stream: 1), .lent(stream: 1), .lent(stream: 1)])
    }

    /// A switch with v4l2loopback's 4 buffers: the next camera starts on its own buffers while
    /// the old one holds three; once the old one stopped, the pages are free again (the shown
    /// one excepted) and the new camera is reopened into them.
    @Test func aRetiredStreamsPagesWaitForItsStopAndTheShownOneIsNeverLent() {
        var book = LoopbackPageBook(count: 4)
        #expect(book.lend(to: 1) == .success([0, 1, 2]))
        book.show(1)
        #expect(book.lend(to: 2) == .failure(.buffersLent))
        // The new camera's frames are copied into page 3; the old one is handed over to stop.
        #expect(book.pageForOwnFrame() == 3)
        book.show(3)
        book.retire(stream: 1)
        #expect(book.owners == [.returning(stream: 1), .returning(stream: 1), .returning(stream: 1), .free])
        // Until STREAMOFF and REQBUFS 0 are done the driver may still write pages 0 to 2.
        #expect(book.lend(to: 3) == .failure(.buffersLent))
        #expect(book.pageForOwnFrame() == nil)
        book.stopped(stream: 1)
        #expect(book.lend(to: 3) == .success([0, 1, 2]))
        book.show(0)
        #expect(book.pageForOwnFrame() == 3)
    }

    /// The daemon's own frames copied one after another (a camera on its own buffers with every
    /// page free) go round the pages: the page shown before the newest, which a reader one frame
    /// behind may read, is not the next one written.
    @Test func ownFramesGoRoundEveryFreePage() {
        var book = LoopbackPageBook(count: 4)
        var written: [Int] = []
        for _ in 0..<8 {
            guard let page = book.pageForOwnFrame() else { Issue.record("no page"); return }
            written.append(page)
            book.show(page)
        }
        #expect(written == [0, 1, 2, 3, 0, 1, 2, 3])
        // Queued again as it is (a repeat), the shown page does not count as shown anew.
        book.show(3)
        #expect(book.pageForOwnFrame() == 0)
    }

    @Test func pagesOfAnOpenTheCameraRefusedAreFreeAgain() {
        var book = LoopbackPageBook(count: 4)
        #expect(book.lend(to: 7) == .success([0, 1, 2]))
        book.cancel(stream: 7)
        #expect(book.owners == Array(repeating: .free, count: 4))
        // Cancelling a stream that holds nothing changes nothing.
        book.cancel(stream: 8)
        #expect(book.lend(to: 9) == .success([0, 1, 2]))
    }

    @Test func theConfigSwitchIsValidatedWithTheNearestName() throws {
        #expect(try DaemonConfig.decode(json: #"{"virtualCameraForwarding": "copy"}"#).virtualCameraForwarding == .copy)
        #expect(try DaemonConfig.decode(json: "{}").virtualCameraForwarding == .auto)
        #expect(try DaemonConfig.decode(json: #"{"virtualCameraForwarding": "auto"}"#).virtualCameraForwarding == .auto)
        do {
            _ = try DaemonConfig.decode(json: #"{"virtualCameraForwarding": "cpy"}"#)
            Issue.record("expected an error")
        } catch {
            let text = error.errors.map { "\($0)" }.joined()
            #expect(text.contains("virtualCameraForwarding") && text.contains("did you mean \"copy\"") && text.contains("auto, copy"))
        }
    }

    /// The fed camera's frame ends the questions at the tick only when it is of the last
    /// output interval (50 fps: 20 ms): older, or stamped by a clock ahead of ours, and the
    /// camera is asked again until it has nothing more (issue 29).
    @Test(arguments: [
        (timestamp: 1_000_000_000 as UInt64, now: 1_000_000_000 as UInt64, newest: true),
        (timestamp: 1_000_000_000, now: 1_019_999_999, newest: true),
        (timestamp: 1_000_000_000, now: 1_020_000_000, newest: false),
        (timestamp: 1_000_000_000, now: 1_500_000_000, newest: false),
        (timestamp: 1_000_000_001, now: 1_000_000_000, newest: false),
        (timestamp: 0, now: 5_000_000_000, newest: false),
    ])
    func aFrameOfTheLastIntervalIsTheNewestAtTheTick(timestamp: UInt64, now: UInt64, newest: Bool) {
        #expect(ForwardingPlan.isNewestAtTick(timestamp: timestamp, now: now, interval: 20_000_000) == newest)
    }

    /// A page that stopped being the newest stays away from its camera for most of an output
    /// interval (30 fps: 33.3 ms; a quarter left for the ticks' jitter): a tick 13 ms after a
    /// late one must not give it back (the guest soak's torn frame).
    @Test(arguments: [
        (since: 1_000_000_000 as UInt64, now: 1_033_333_333 as UInt64, over: true),
        (since: 1_000_000_000, now: 1_025_000_000, over: true),
        (since: 1_000_000_000, now: 1_024_999_999, over: false),
        (since: 1_000_000_000, now: 1_013_000_000, over: false),
        (since: 1_000_000_000, now: 1_000_000_000, over: false),
        (since: 1_000_000_001, now: 1_000_000_000, over: false),
    ])
    func aPageLingersMostOfAnInterval(since: UInt64, now: UInt64, over: Bool) {
        #expect(ForwardingPlan.lingerIsOver(since: since, now: now, interval: 33_333_333) == over)
    }
}
