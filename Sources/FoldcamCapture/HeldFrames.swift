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

    init(span: UInt64, fps: Double, format: PixelFormat, width: Int, height: Int) {
        let ring = HeldFrameRing(span: span, fps: fps, format: format, width: width, height: height)
        capacity = ring.capacity
        byteCount = ring.byteCount
        self.ring = Mutex(ring)
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
    func append(copying bytes: UnsafeRawBufferPointer, timestamp: UInt64, source: String?) -> [DriverBuffer] {
        ring.withLock { $0.append(copying: bytes, timestamp: timestamp, source: source) }
    }

    /// See `HeldFrameRing.noteShownWrite`.
    func noteShownWrite(timestamp: UInt64, source: String?) {
        ring.withLock { $0.noteShownWrite(timestamp: timestamp, source: source) }
    }

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
