@testable import FoldcamCapture
import FoldcamVideo
import Testing

/// Driver buffers stood in by memory of the test's own: which buffers the ring and the output
/// hold, which they let go (to be queued again), and what snapshots copy out of them.
final class FakeBuffers {
    static let width = 2, height = 2
    static let byteCount = PixelFormat.yuyv.byteCount(width: width, height: height)
    let memory: UnsafeMutableRawBufferPointer
    let count: Int
    let stream: UInt64

    init(stream: UInt64 = 1, count: Int) {
        self.stream = stream
        self.count = count
        memory = .allocate(byteCount: Self.byteCount * count, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit { memory.deallocate() }

    subscript(index: Int) -> DriverBuffer {
        DriverBuffer(stream: stream, index: index, bytes: UnsafeRawBufferPointer(rebasing: memory[(index * Self.byteCount)..<((index + 1) * Self.byteCount)]))
    }

    /// Fills buffer `index` with `value`, as the driver would with a new frame.
    func fill(_ index: Int, with value: UInt8) {
        memory[(index * Self.byteCount)..<((index + 1) * Self.byteCount)].initializeMemory(as: UInt8.self, repeating: value)
    }
}

@Suite struct HeldFrameRingTests {
    static func ring(span: UInt64 = 100_000_000, fps: Double = 30) -> HeldFrameRing {
        HeldFrameRing(span: span, fps: fps, format: .yuyv, width: FakeBuffers.width, height: FakeBuffers.height)
    }

    static func indices(_ buffers: [DriverBuffer]) -> [Int] { buffers.map(\.index) }

    @Test func nearestFrameToAMoment() {
        var ring = Self.ring(span: 500_000_000, fps: 30)
        #expect(ring.capacity == 16)
        for index in 0..<40 {
            let bytes = [UInt8](repeating: UInt8(index), count: FakeBuffers.byteCount)
            _ = bytes.withUnsafeBytes { ring.append(copying: $0, timestamp: UInt64(index) * 33_000_000, source: "c\(index)") }
        }
        #expect(ring.count == 16)
        let found = ring.nearest(to: 34 * 33_000_000 + 1_000_000)
        #expect(found?.bytes.first == 34)
        #expect(found?.timestamp == 34 * 33_000_000)
        #expect(found?.source == "c34")
        // Older than the ring reaches: nothing, rather than a wrong frame.
        #expect(ring.nearest(to: 1_000_000) == nil)
    }

    @Test func aHeldBufferIsLetGoOnlyWhenNoEntryAndNotTheOutputHoldIt() {
        let buffers = FakeBuffers(count: 3)
        var ring = Self.ring()
        #expect(ring.capacity == 4)
        #expect(ring.show(buffers[0]).isEmpty)
        #expect(ring.append(held: buffers[0], timestamp: 0, source: "a").isEmpty)
        // The output moves on, but the ring still holds buffer 0.
        #expect(ring.show(buffers[1]).isEmpty)
        for tick in 1...3 {  // buffer 1 written three times: repeats hold the same buffer
            #expect(ring.append(held: buffers[1], timestamp: UInt64(tick), source: "a").isEmpty)
        }
        #expect(ring.show(buffers[2]).isEmpty)
        #expect(Self.indices(ring.append(held: buffers[2], timestamp: 4, source: "a")) == [0])
        #expect(ring.append(held: buffers[2], timestamp: 5, source: "a").isEmpty)
        #expect(ring.append(held: buffers[2], timestamp: 6, source: "a").isEmpty)
        #expect(Self.indices(ring.append(held: buffers[2], timestamp: 7, source: "a")) == [1])
        // Buffer 2 stays held while shown, though owned frames push its entries out.
        let owned = [UInt8](repeating: 9, count: FakeBuffers.byteCount)
        for tick in 8...11 {
            #expect(owned.withUnsafeBytes { ring.append(copying: $0, timestamp: UInt64(tick), source: nil) }.isEmpty)
        }
        #expect(Self.indices(ring.show(nil)) == [2])
    }

    /// Zero-copy: the ring copies a loopback page now and then; between copies a snapshot of
    /// the moment on screen copies the shown page itself, and once the page is no longer shown
    /// (it goes back to the camera) only the copies remain.
    @Test func aShownButUncopiedWriteIsFoundWhileItIsShown() {
        let pages = FakeBuffers(count: 2)
        var ring = Self.ring(span: 500_000_000, fps: 25)
        pages.fill(0, with: 10)
        _ = ring.show(pages[0])
        _ = ring.append(copying: pages[0].bytes, timestamp: 0, source: "a")
        pages.fill(1, with: 11)
        #expect(Self.indices(ring.show(pages[1])) == [0])
        ring.noteShownWrite(timestamp: 40_000_000, source: "a")
        let onScreen = ring.nearest(to: 41_000_000)
        #expect(onScreen?.bytes.first == 11 && onScreen?.timestamp == 40_000_000 && onScreen?.source == "a")
        #expect(ring.nearest(to: 1_000_000)?.bytes.first == 10)
        // Page 1 goes back to the camera once page 0 shows again: no longer found.
        #expect(Self.indices(ring.show(pages[0])) == [1])
        #expect(ring.nearest(to: 41_000_000)?.bytes.first == 10)
        // A write noted while nothing is shown is no frame.
        _ = ring.show(nil)
        ring.noteShownWrite(timestamp: 80_000_000, source: "a")
        #expect(ring.nearest(to: 80_000_000)?.timestamp == 0)
    }

    @Test func showingTheSameBufferAgainLetsNothingGo() {
        let buffers = FakeBuffers(count: 1)
        var ring = Self.ring()
        _ = ring.show(buffers[0])
        #expect(ring.show(buffers[0]).isEmpty)
        #expect(Self.indices(ring.show(nil)) == [0])
    }

    @Test func aSnapshotIsACopyThatOutlivesTheBuffer() {
        let buffers = FakeBuffers(count: 2)
        buffers.fill(1, with: 7)
        var ring = Self.ring()
        _ = ring.show(buffers[1])
        _ = ring.append(held: buffers[1], timestamp: 1_000, source: "inner")
        let shot = ring.nearest(to: 1_200)
        buffers.fill(1, with: 8)  // the driver fills it again once queued
        #expect(shot?.bytes == [UInt8](repeating: 7, count: FakeBuffers.byteCount))
        #expect(shot?.timestamp == 1_000)
        #expect(shot?.source == "inner")
        #expect(shot?.format == .yuyv && shot?.width == FakeBuffers.width)
    }

    @Test func detachingAStreamSwapsItsEntriesForCopiesAndLeavesOtherStreams() {
        let old = FakeBuffers(stream: 1, count: 3)
        let new = FakeBuffers(stream: 2, count: 1)
        old.fill(0, with: 10)
        old.fill(1, with: 11)
        new.fill(0, with: 20)
        var ring = Self.ring(span: 1_000, fps: 5_000_000_000)  // room for every entry below
        for (tick, index) in [0, 0, 1, 2].enumerated() {
            _ = ring.show(old[index])
            _ = ring.append(held: old[index], timestamp: UInt64(tick), source: "old")
        }
        _ = ring.show(new[0])
        _ = ring.append(held: new[0], timestamp: 4, source: "new")
        #expect(Self.indices(ring.heldBuffers(of: 1)) == [0, 1, 2])
        // Buffer 2 got no copy (say it was short): its entry goes.
        ring.detach(stream: 1, copies: [0: Array(old[0].bytes), 1: Array(old[1].bytes)])
        old.fill(0, with: 99)
        old.fill(1, with: 99)
        #expect(ring.heldBuffers(of: 1).isEmpty)
        #expect(ring.count == 4)
        #expect(ring.nearest(to: 0)?.bytes.first == 10)
        #expect(ring.nearest(to: 2)?.bytes.first == 11)
        #expect(ring.nearest(to: 4)?.source == "new")
        #expect(Self.indices(ring.heldBuffers(of: 2)) == [0])
    }

    @Test func detachingTheShownStreamLetsNothingGoToQueue() {
        let buffers = FakeBuffers(count: 1)
        var ring = Self.ring()
        _ = ring.show(buffers[0])
        ring.detach(stream: buffers.stream, copies: [:])
        #expect(ring.shown == nil)
        #expect(ring.show(nil).isEmpty)
    }

    /// A producer's life against a driver with `capacity + 3` buffers: frames arrive (some two
    /// at once, some not for several ticks), ticks write and record, the unavailable frame
    /// comes and goes. The ring and the output never hold more than `capacity + 1` buffers (so
    /// two stay queued), never let go of a buffer they do not hold, and let go of every one
    /// in the end.
    @Test func buffersHeldStayWithinTheBudgetAndAllComeBack() {
        var ring = Self.ring(span: 200_000_000, fps: 30)  // capacity 7
        let buffers = FakeBuffers(count: ring.capacity + VirtualCameraProducer.buffersBeyondRing)
        var queued = Array(0..<buffers.count)
        var held: Set<Int> = []
        var most = 0
        func giveBack(_ released: [DriverBuffer]) {
            for buffer in released {
                #expect(held.remove(buffer.index) != nil, "let go of buffer \(buffer.index), which it did not hold")
                queued.append(buffer.index)
            }
        }
        var random: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: UInt64) -> UInt64 {
            random ^= random << 13
            random ^= random >> 7
            random ^= random << 17
            return random % bound
        }
        var showingOwn = false
        for tick in 0..<2_000 {
            for _ in 0..<next(3) where !showingOwn {  // 0, 1 or 2 frames since the last tick
                #expect(queued.count >= 2, "tick \(tick): the driver has \(queued.count) buffers left")
                guard !queued.isEmpty else { break }
                let index = queued.removeFirst()
                held.insert(index)
                giveBack(ring.show(buffers[index]))
            }
            most = max(most, held.count)
            #expect(held.count <= ring.capacity + 1)
            if next(50) == 0 {
                showingOwn.toggle()
                if showingOwn { giveBack(ring.show(nil)) }
            }
            if let shown = ring.shown {
                giveBack(ring.append(held: shown, timestamp: UInt64(tick), source: "camera"))
            } else {
                let own = [UInt8](repeating: 1, count: FakeBuffers.byteCount)
                giveBack(own.withUnsafeBytes { ring.append(copying: $0, timestamp: UInt64(tick), source: nil) })
            }
            most = max(most, held.count)
            #expect(held.count <= ring.capacity + 1)
        }
        giveBack(ring.show(nil))
        let own = [UInt8](repeating: 1, count: FakeBuffers.byteCount)
        for tick in 0..<ring.capacity {
            giveBack(own.withUnsafeBytes { ring.append(copying: $0, timestamp: UInt64(3_000 + tick), source: nil) })
        }
        #expect(held.isEmpty)
        #expect(queued.count == buffers.count)
        #expect(most == ring.capacity + 1)
    }
}

/// The output frame over a held buffer: what it records, and what it keeps when the buffer's
/// stream stops.
@Suite struct OutputFrameTests {
    static func frames() -> HeldFrames {
        HeldFrames(span: 1_000_000_000, fps: 30, format: .yuyv, width: FakeBuffers.width, height: FakeBuffers.height)
    }

    @Test func aShownBufferIsRecordedWithoutACopyAndKeptAsACopyWhenItsStreamStops() {
        let buffers = FakeBuffers(count: 2)
        buffers.fill(0, with: 5)
        let frames = Self.frames()
        let start = VideoFrame(format: .yuyv, width: FakeBuffers.width, height: FakeBuffers.height, filledWith: YUV(y: 1, u: 2, v: 3))
        var output = OutputFrame(start, frames: frames)
        #expect(output.hold(buffers[0], camera: "inner", inRing: true).take().isEmpty)
        _ = output.record(at: 100).take()
        // Held, not copied: the ring sees what is in the buffer now.
        buffers.fill(0, with: 6)
        #expect(frames.nearest(to: 100)?.bytes.first == 6)
        output.keep(stream: buffers.stream)
        #expect(output.shown == nil)
        buffers.fill(0, with: 7)  // unmapped, in effect: the output must not read it any more
        _ = output.record(at: 200).take()
        let repeated = frames.nearest(to: 200)
        #expect(repeated?.bytes.first == 6)
        #expect(repeated?.source == "inner")
        #expect(repeated?.timestamp == 200)
    }

    @Test func aTurnedFrameIsCopiedAndTheHeldBufferLetGo() {
        let buffers = FakeBuffers(count: 1)
        let frames = Self.frames()
        let start = VideoFrame(format: .yuyv, width: FakeBuffers.width, height: FakeBuffers.height, filledWith: YUV(y: 1, u: 2, v: 3))
        var output = OutputFrame(start, frames: frames)
        _ = output.hold(buffers[0], camera: "inner", inRing: true).take()
        // Y0 U Y1 V, Y0 U Y1 V: turned by 180° the rows and the pixels in each swap.
        let raw: [UInt8] = [10, 128, 20, 128, 30, 128, 40, 128]
        var released = ReleasedBuffers.none
        raw.withUnsafeBytes { released.merge(output.copy($0, timestamp: 7, camera: "outer", transform: .init(rotation: 180))) }
        #expect(released.take().map(\.index) == [0])  // the ring never held it
        _ = output.record(at: 300).take()
        #expect(frames.nearest(to: 300)?.bytes == [40, 128, 30, 128, 20, 128, 10, 128])
        #expect(frames.nearest(to: 300)?.source == "outer")
    }

    /// Zero-copy with a software turn: the frame is turned in the loopback page the camera
    /// captured it into, and that page is shown (no other page is written); the page shown
    /// before it is let go.
    @Test func aTurnedLentFrameIsTurnedInItsOwnPageAndShown() {
        let buffers = FakeBuffers(count: 2)
        let frames = Self.frames()
        let start = VideoFrame(format: .yuyv, width: FakeBuffers.width, height: FakeBuffers.height, filledWith: YUV(y: 1, u: 2, v: 3))
        var output = OutputFrame(start, frames: frames)
        buffers.fill(1, with: 99)
        _ = output.hold(buffers[1], camera: "outer", inRing: false, lent: true).take()
        let raw: [UInt8] = [10, 128, 20, 128, 30, 128, 40, 128]
        raw.withUnsafeBytes { UnsafeMutableRawPointer(mutating: buffers[0].bytes.baseAddress!).copyMemory(from: $0.baseAddress!, byteCount: raw.count) }
        let released = output.turnAndHold(buffers[0], camera: "outer", transform: .init(rotation: 180))
        #expect(released.take().map(\.index) == [1])
        #expect(output.showsLentBuffer)
        #expect(output.shown?.buffer.index == 0)
        #expect(Array(buffers[0].bytes) == [40, 128, 30, 128, 20, 128, 10, 128])
        #expect(buffers[1].bytes.allSatisfy { $0 == 99 })  // the page shown before: untouched
    }
}
