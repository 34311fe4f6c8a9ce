import FoldcamVideo
import Synchronization

/// The snapshot ring shared between the producer thread (which records every write), snapshot
/// requests (any thread) and the setup thread (which stops streams whose buffers it may hold).
///
/// Every read of driver memory happens under the lock, and a buffer leaves the ring under the
/// lock before anyone queues it again or unmaps it: the producer queues the buffers an update
/// hands back only after the update returned, and the setup thread calls `detach` before it
/// stops a stream. So a snapshot never copies a buffer the driver is filling.
final class HeldFrames: Sendable {
    private let ring: Mutex<HeldFrameRing>
    let capacity: Int
    private let byteCount: Int
    /// Whether past frames are kept for snapshots of a past moment (`keepHistory`). The
    /// producer reads it on every write; the daemon sets it.
    private let history = Atomic<Bool>(true)

    init(span: UInt64, fps: Double, format: PixelFormat, width: Int, height: Int) {
        let ring = HeldFrameRing(span: span, fps: fps, format: format, width: width, height: height)
        capacity = ring.capacity
        byteCount = ring.byteCount
        self.ring = Mutex(ring)
    }

    private var keepsHistory: Bool { history.load(ordering: .relaxed) }

    /// Keeps past frames (true) or only the frame on screen (false). While nobody who may take
    /// snapshots is connected, nobody can ask for a past moment: frames shown from buffers the
    /// ring cannot keep (loopback pages, a stream short of buffers) are then not copied at all,
    /// and the copies kept so far are let go.
    func keepHistory(_ keep: Bool) {
        guard history.exchange(keep, ordering: .relaxed) != keep, !keep else { return }
        dropCopies()
    }

    /// Frees the copies the ring keeps (entries holding driver buffers stay).
    func dropCopies() {
        ring.withLock { $0.dropCopies() }
    }

    /// See `HeldFrameRing.show`; the caller queues the buffers returned.
    func show(_ buffer: DriverBuffer?) -> [DriverBuffer] {
        ring.withLock { $0.show(buffer) }
    }

    /// See `HeldFrameRing.append(held:)`; the caller queues the buffers returned.
    func append(held buffer: DriverBuffer, timestamp: UInt64, source: String?) -> [DriverBuffer] {
        ring.withLock { $0.append(held: buffer, timestamp: timestamp, source: source) }
    }

    /// See `HeldFrameRing.append(copying:)`; the caller queues the buffers returned.
    /// `history`: the copy only keeps a past frame (the frame on screen stays in its buffer), so
    /// it is made only while past frames are kept; otherwise the write is noted as the shown
    /// buffer's. Asked under the lock: `keepHistory(false)` clears the ring under it, so no copy
    /// made after that stays behind.
    func append(copying bytes: UnsafeRawBufferPointer, timestamp: UInt64, source: String?, history: Bool = false) -> [DriverBuffer] {
        ring.withLock { ring in
            if history && !keepsHistory {
                ring.noteShownWrite(timestamp: timestamp, source: source)
                return []
            }
            return ring.append(copying: bytes, timestamp: timestamp, source: source)
        }
    }

    /// See `HeldFrameRing.noteShownWrite`.
    func noteShownWrite(timestamp: UInt64, source: String?) {
        ring.withLock { $0.noteShownWrite(timestamp: timestamp, source: source) }
    }

    /// Entries the ring holds now (for tests).
    var entryCount: Int { ring.withLock { $0.count } }

    func nearest(to timestamp: UInt64) -> VideoFrame? {
        ring.withLock { $0.nearest(to: timestamp) }
    }

    /// Before a stream stops: copies the frames entries hold in its buffers and swaps the
    /// copies in, so snapshots keep the last `span` of a camera that was switched away from.
    /// The copying runs outside the lock, so neither the producer nor snapshots wait for it.
    /// That is safe because the stream has been handed over to be stopped: nobody queues its
    /// buffers any more (the producer no longer has it), and it is unmapped only after this.
    func detach(stream: UInt64) {
        let buffers = ring.withLock { $0.heldBuffers(of: stream) }
        var copies: [Int: [UInt8]] = [:]
        for buffer in buffers where buffer.bytes.count >= byteCount {
            copies[buffer.index] = Array(buffer.bytes[0..<byteCount])
        }
        ring.withLock { $0.detach(stream: stream, copies: copies) }
    }
}
