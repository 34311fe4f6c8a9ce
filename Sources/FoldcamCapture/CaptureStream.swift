import FoldcamPlatform
import FoldcamV4L2
import FoldcamVideo
import Synchronization

/// Numbers every stream of the process, so a held buffer names its stream without keeping a
/// reference to it (an object's address can be reused once it is gone; these never are).
private let streamSerials = Atomic<UInt64>(0)

/// A camera streaming through mmap buffers (REQBUFS/QBUF/DQBUF/STREAMON). Frames are lent to
/// the caller straight from the driver's buffer, held until the caller queues the buffer again
/// (`dequeue` / `requeue`): the producer writes and keeps frames without copying them.
final class CaptureStream {
    let camera: String
    let serial = streamSerials.add(1, ordering: .relaxed).newValue
    private let device: V4L2Device
    private var buffers: [(address: UnsafeMutableRawPointer, length: Int)] = []
    private var streaming = false
    /// What the camera delivers (the output's format, or MJPG the producer decodes).
    let fourCC: FourCC
    let width: Int
    let height: Int
    /// Whether the sensor can flip itself (a 180° turn then costs nothing).
    let canFlip: Bool
    /// Set when the camera captures into loopback pages (USERPTR, zero-copy): who they are
    /// lent to. Slot i captures into page i for the stream's whole life (CaptureStream+Lent).
    private(set) var lender: UInt64?
    /// The loopback page each slot captures into, when lent.
    private var pageIndices: [Int] = []
    private var mappedQueue: V4L2BufferQueue<V4L2Capture, V4L2Mapped> { device.queue(V4L2Capture.self, V4L2Mapped.self) }
    var lentQueue: V4L2BufferQueue<V4L2Capture, V4L2UserPointer> { device.queue(V4L2Capture.self, V4L2UserPointer.self) }

    var descriptor: Int32 { device.pollDescriptor }
    /// How many buffers the driver granted (it may give fewer, or more, than asked).
    var bufferCount: Int { buffers.count }

    /// Opens `node` and starts streaming `format` at `width`×`height`, `fps`. Throws if the
    /// device cannot deliver exactly that mode.
    /// `lending`: capture into these loopback pages (zero-copy) instead of the driver's own
    /// buffers; a camera that refuses throws, and the caller opens it again without.
    init(camera: String, node: String, fourCC: FourCC, width: Int, height: Int, fps: Double, bufferCount: UInt32 = 4, lending: LentPages? = nil) throws(SystemCallError) {
        self.camera = camera
        self.fourCC = fourCC
        self.width = width
        self.height = height
        device = try V4L2Device(node: node, access: .kernel, nonBlocking: true)
        canFlip = device.canFlip()
        let negotiated = try device.setFormat(V4L2Capture.self, fourCC: fourCC, width: width, height: height)
        guard negotiated.width == width, negotiated.height == height, negotiated.fourCC == fourCC else {
            throw SystemCallError("VIDIOC_S_FMT \(fourCC) \(width)x\(height) (device offered \(negotiated.fourCC) \(negotiated.width)x\(negotiated.height))", .invalidArgument, subject: node)
        }
        // Not every driver takes a rate (a TV input has its standard's): best effort.
        try? device.setFrameRate(V4L2Capture.self, fps: fps)

        if let lending {
            lender = lending.lender
            buffers = lending.pages.map { ($0.address, $0.length) }
            pageIndices = lending.pages.map(\.index)
            try Self.lend(lending, to: lentQueue, negotiated: negotiated)
            try lentQueue.streamOn()
            streaming = true
            return
        }
        let queue = mappedQueue
        let granted = try queue.request(Int(bufferCount))
        for index in 0..<granted {
            let place = try queue.query(index)
            let address = try queue.map(index, at: place)
            buffers.append((address, place.length))
            try queue.queue(index)
        }
        try queue.streamOn()
        streaming = true
    }

    deinit { stop() }

    /// Turns the sensor by 180° with its flip controls; false when it has none.
    func setFlipped(_ flipped: Bool) -> Bool {
        guard canFlip else { return false }
        return (try? device.setFlipped(flipped)) != nil
    }

    /// Takes the next filled buffer from the driver, which leaves it alone until `requeue`; nil
    /// when no frame is ready. Its memory stays valid until `stop()`.
    func dequeue() throws(SystemCallError) -> (buffer: DriverBuffer, timestamp: UInt64)? {
        guard let filled = try lender == nil ? mappedQueue.dequeue() : lentQueue.dequeue() else { return nil }
        let slot = buffers[filled.index]
        let used = min(filled.bytesUsed == 0 ? slot.length : filled.bytesUsed, slot.length)
        let held = DriverBuffer(stream: serial, index: filled.index, bytes: UnsafeRawBufferPointer(start: slot.address, count: used),
                                page: lender == nil ? nil : pageIndices[filled.index])
        return (held, filled.timestamp)
    }

    /// Gives a dequeued buffer back to the driver to fill again.
    func requeue(_ index: Int) throws(SystemCallError) {
        if lender != nil { return try lentQueue.queue(index, memory: buffers[index].address, length: buffers[index].length) }
        try mappedQueue.queue(index)
    }

    func stop() {
        if streaming {
            try? mappedQueue.streamOff()
            streaming = false
        }
        if lender != nil {
            // The pages are the loopback's: the driver lets go of them (unpins), nobody unmaps.
            lentQueue.release()
        } else if !buffers.isEmpty {
            for buffer in buffers { Syscall.unmap(buffer.address, length: buffer.length) }
            // Frees the driver's buffers now, not at close: the same camera can be opened again
            // at once (reopened into loopback pages) while this descriptor is still open.
            mappedQueue.release()
        }
        buffers.removeAll()
    }
}
