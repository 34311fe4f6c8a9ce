import CV4L2
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
    let format: PixelFormat
    let width: Int
    let height: Int
    /// Whether the sensor can flip itself (a 180° turn then costs nothing).
    let canFlip: Bool
    /// Set when the camera captures into loopback pages (USERPTR, zero-copy): who they are
    /// lent to. Slot i captures into page i for the stream's whole life (CaptureStream+Lent).
    private(set) var lender: UInt64?
    /// The loopback page each slot captures into, when lent.
    private var pageIndices: [Int] = []
    private var memory: UInt32 { lender == nil ? cv4l2_MEMORY_MMAP : cv4l2_MEMORY_USERPTR }

    var descriptor: Int32 { device.pollDescriptor }
    /// How many buffers the driver granted (it may give fewer, or more, than asked).
    var bufferCount: Int { buffers.count }

    /// Opens `node` and starts streaming `format` at `width`×`height`, `fps`. Throws if the
    /// device cannot deliver exactly that mode.
    /// `lending`: capture into these loopback pages (zero-copy) instead of the driver's own
    /// buffers; a camera that refuses throws, and the caller opens it again without.
    init(camera: String, node: String, format: PixelFormat, width: Int, height: Int, fps: Double, bufferCount: UInt32 = 4, lending: LentPages? = nil) throws(SystemCallError) {
        self.camera = camera
        self.format = format
        self.width = width
        self.height = height
        device = try V4L2Device(node: node, access: .kernel, nonBlocking: true)
        canFlip = ((try? device.hasControl(cv4l2_CID_HFLIP, name: "V4L2_CID_HFLIP")) ?? false) && ((try? device.hasControl(cv4l2_CID_VFLIP, name: "V4L2_CID_VFLIP")) ?? false)

        var requested = v4l2_format()
        requested.type = cv4l2_BUF_TYPE_VIDEO_CAPTURE
        requested.fmt.pix.width = UInt32(width)
        requested.fmt.pix.height = UInt32(height)
        requested.fmt.pix.pixelformat = format.fourCC.rawValue
        requested.fmt.pix.field = cv4l2_FIELD_NONE
        try device.control(cv4l2_VIDIOC_S_FMT, "VIDIOC_S_FMT", &requested)
        guard requested.fmt.pix.width == UInt32(width), requested.fmt.pix.height == UInt32(height),
              requested.fmt.pix.pixelformat == format.fourCC.rawValue else {
            throw SystemCallError("VIDIOC_S_FMT \(format.rawValue) \(width)x\(height) (device offered \(requested.fmt.pix.width)x\(requested.fmt.pix.height))", .invalidArgument, subject: node)
        }
        var parameters = v4l2_streamparm()
        parameters.type = cv4l2_BUF_TYPE_VIDEO_CAPTURE
        parameters.parm.capture.timeperframe = v4l2_fract(numerator: 1000, denominator: UInt32((fps * 1000).rounded()))
        // Not every driver takes a rate (a TV input has its standard's): best effort.
        _ = try? device.control(cv4l2_VIDIOC_S_PARM, "VIDIOC_S_PARM", &parameters)

        if let lending {
            lender = lending.lender
            buffers = lending.pages.map { ($0.address, $0.length) }
            pageIndices = lending.pages.map(\.index)
            try Self.lend(lending, to: device, negotiated: requested)
            var type = Int32(cv4l2_BUF_TYPE_VIDEO_CAPTURE)
            try device.control(cv4l2_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
            streaming = true
            return
        }
        var request = v4l2_requestbuffers()
        request.count = bufferCount
        request.type = cv4l2_BUF_TYPE_VIDEO_CAPTURE
        request.memory = cv4l2_MEMORY_MMAP
        try device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
        for index in 0..<request.count {
            var buffer = v4l2_buffer()
            buffer.index = index
            buffer.type = cv4l2_BUF_TYPE_VIDEO_CAPTURE
            buffer.memory = cv4l2_MEMORY_MMAP
            try device.control(cv4l2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buffer)
            let address = try device.mapBuffer(length: Int(buffer.length), offset: Int(buffer.m.offset), index: index)
            buffers.append((address, Int(buffer.length)))
            try device.control(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
        }
        var type = Int32(cv4l2_BUF_TYPE_VIDEO_CAPTURE)
        try device.control(cv4l2_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
        streaming = true
    }

    deinit { stop() }

    /// Turns the sensor by 180° with its flip controls; false when it has none.
    func setFlipped(_ flipped: Bool) -> Bool {
        guard canFlip else { return false }
        do {
            try device.setControl(cv4l2_CID_HFLIP, flipped ? 1 : 0, name: "V4L2_CID_HFLIP")
            try device.setControl(cv4l2_CID_VFLIP, flipped ? 1 : 0, name: "V4L2_CID_VFLIP")
            return true
        } catch {
            return false
        }
    }

    /// Takes the next filled buffer from the driver, which leaves it alone until `requeue`; nil
    /// when no frame is ready. Its memory stays valid until `stop()`.
    func dequeue() throws(SystemCallError) -> (buffer: DriverBuffer, timestamp: UInt64)? {
        var buffer = v4l2_buffer()
        buffer.type = cv4l2_BUF_TYPE_VIDEO_CAPTURE
        buffer.memory = memory
        guard try device.control(cv4l2_VIDIOC_DQBUF, "VIDIOC_DQBUF", &buffer, unlessFailingWith: [.wouldBlock]) else { return nil }
        let slot = buffers[Int(buffer.index)]
        let used = min(Int(buffer.bytesused == 0 ? UInt32(slot.length) : buffer.bytesused), slot.length)
        let timestamp = UInt64(buffer.timestamp.tv_sec) * 1_000_000_000 + UInt64(buffer.timestamp.tv_usec) * 1000
        let held = DriverBuffer(stream: serial, index: Int(buffer.index), bytes: UnsafeRawBufferPointer(start: slot.address, count: used),
                                page: lender == nil ? nil : pageIndices[Int(buffer.index)])
        return (held, timestamp)
    }

    /// Gives a dequeued buffer back to the driver to fill again.
    func requeue(_ index: Int) throws(SystemCallError) {
        if lender != nil { return try Self.requeue(slot: index, page: buffers[index], on: device) }
        var buffer = v4l2_buffer()
        buffer.type = cv4l2_BUF_TYPE_VIDEO_CAPTURE
        buffer.memory = cv4l2_MEMORY_MMAP
        buffer.index = UInt32(index)
        try device.control(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
    }

    func stop() {
        if streaming {
            var type = Int32(cv4l2_BUF_TYPE_VIDEO_CAPTURE)
            _ = try? device.control(cv4l2_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF", &type)
            streaming = false
        }
        if lender != nil {
            // The pages are the loopback's: the driver lets go of them (unpins), nobody unmaps.
            Self.release(device)
        } else if !buffers.isEmpty {
            for buffer in buffers { Syscall.unmap(buffer.address, length: buffer.length) }
            // Frees the driver's buffers now, not at close: the same camera can be opened again
            // at once (reopened into loopback pages) while this descriptor is still open.
            Self.release(device, memory: cv4l2_MEMORY_MMAP)
        }
        buffers.removeAll()
    }
}
