@testable import FoldcamCapture
import FoldcamVideo
import Testing

/// With no client who may take snapshots connected, frames shown from buffers the ring cannot
/// keep are not copied (issue 29: the copy every 100 ms was most of the zero-copy producer's
/// time at 1080p); a snapshot still gets the frame on screen.
@Suite struct SnapshotHistoryRingTests {
    static let millisecond: UInt64 = 1_000_000

    /// Shows loopback pages 0, 1, 0 … (lent, zero-copy) written 150 ms apart, past the ring's
    /// 100 ms copy interval, so with history every write is copied.
    static func showLentPages(_ output: inout OutputFrame, _ buffers: FakeBuffers, writes: Int) {
        for write in 0..<writes {
            let page = write % 2
            buffers.fill(page, with: UInt8(10 + write))
            _ = output.hold(buffers[page], camera: "inner", inRing: false, lent: true).take()
            _ = output.record(at: UInt64(write) * 150 * millisecond).take()
        }
    }

    static func output(_ frames: HeldFrames) -> OutputFrame {
        OutputFrame(VideoFrame(format: .yuyv, width: FakeBuffers.width, height: FakeBuffers.height, filledWith: YUV(y: 1, u: 2, v: 3)), frames: frames)
    }

    @Test func withoutHistoryLentPagesAreNotCopiedAndTheFrameOnScreenIsFound() {
        let buffers = FakeBuffers(count: 2)
        let frames = OutputFrameTests.frames()
        frames.keepHistory(false)
        var output = Self.output(frames)
        Self.showLentPages(&output, buffers, writes: 4)
        #expect(frames.entryCount == 0, "no copies")
        // A past moment gets the frame on screen (written at 450 ms), the nearest there is.
        let past = frames.nearest(to: 0)
        #expect(past?.timestamp == 450 * Self.millisecond)
        #expect(past?.bytes.allSatisfy { $0 == 13 } == true)
    }

    @Test func withHistoryEachWriteAnIntervalApartIsCopied() {
        let buffers = FakeBuffers(count: 2)
        let frames = OutputFrameTests.frames()
        var output = Self.output(frames)
        Self.showLentPages(&output, buffers, writes: 4)
        #expect(frames.entryCount == 4)
        let past = frames.nearest(to: 0)
        #expect(past?.timestamp == 0)
        #expect(past?.bytes.allSatisfy { $0 == 10 } == true, "the copy kept the page's bytes of then")
    }

    @Test func turningHistoryOffLetsTheCopiesGoAndOnAgainKeepsNewOnes() {
        let buffers = FakeBuffers(count: 2)
        let frames = OutputFrameTests.frames()
        var output = Self.output(frames)
        Self.showLentPages(&output, buffers, writes: 3)
        #expect(frames.entryCount == 3)
        frames.keepHistory(false)
        #expect(frames.entryCount == 0, "copies freed")
        frames.keepHistory(true)
        Self.showLentPages(&output, buffers, writes: 2)
        #expect(frames.entryCount == 2)
    }

    @Test func aCopyStartedAsHistoryStopsIsNotKept() {
        // The producer decided to copy just before the daemon stopped history: the copy is
        // asked for under the ring's lock, after the clearing, so it is not made; the write is
        // still found as the frame on screen.
        let buffers = FakeBuffers(count: 1)
        buffers.fill(0, with: 42)
        let frames = OutputFrameTests.frames()
        frames.keepHistory(false)
        _ = frames.show(buffers[0])
        _ = frames.append(copying: buffers[0].bytes, timestamp: 7, source: "inner", history: true)
        #expect(frames.entryCount == 0)
        #expect(frames.nearest(to: 7)?.timestamp == 7)
        #expect(frames.append(copying: buffers[0].bytes, timestamp: 8, source: nil).isEmpty)
        #expect(frames.entryCount == 1, "the daemon's own frames are copied whatever the flag")
    }

    @Test func heldEntriesStayWhenHistoryStops() {
        // A stream with buffers enough keeps the buffers themselves: no copy to drop, and
        // dropping them would have to queue them again.
        let buffers = FakeBuffers(count: 2)
        let frames = OutputFrameTests.frames()
        var output = Self.output(frames)
        _ = output.hold(buffers[0], camera: "inner", inRing: true).take()
        _ = output.record(at: 0).take()
        frames.keepHistory(false)
        #expect(frames.entryCount == 1)
        _ = output.record(at: 33 * Self.millisecond).take()
        #expect(frames.entryCount == 2, "held buffers are still recorded: they cost no copy")
    }
}
