import CV4L2
import FoldcamPlatform
import FoldcamV4L2

/// A camera capturing into loopback pages (`V4L2_MEMORY_USERPTR`): the zero-copy path. Slot i
/// of the capture queue always gets page i, so a dequeued slot names its page and the producer
/// hands the loopback exactly the bytes the camera driver wrote.
extension CaptureStream {
    /// REQBUFS(USERPTR) and QBUF of every page; throws when the camera refuses any of it or its
    /// negotiated frame does not fit a page as it is.
    static func lend(_ lending: LentPages, to device: V4L2Device, negotiated: v4l2_format) throws(SystemCallError) {
        if let mismatch = ForwardingPlan.layoutFits(
            cameraBytesPerLine: Int(negotiated.fmt.pix.bytesperline), cameraFrameBytes: Int(negotiated.fmt.pix.sizeimage),
            loopbackBytesPerLine: lending.bytesPerLine, loopbackBufferBytes: lending.pages.map(\.length).min() ?? 0) {
            throw SystemCallError("capture into the loopback's buffers: \(mismatch)", .invalidArgument, subject: device.node)
        }
        var request = v4l2_requestbuffers()
        request.count = UInt32(lending.pages.count)
        request.type = cv4l2_BUF_TYPE_VIDEO_CAPTURE
        request.memory = cv4l2_MEMORY_USERPTR
        try device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS(USERPTR)", &request)
        // A driver that wants more buffers queued than there are pages would never start.
        guard Int(request.count) <= lending.pages.count else {
            release(device)
            throw SystemCallError("VIDIOC_REQBUFS(USERPTR): the camera needs \(request.count) buffers and \(lending.pages.count) are lent", .invalidArgument, subject: device.node)
        }
        for (slot, page) in lending.pages.enumerated() {
            do {
                try requeue(slot: slot, page: (page.address, page.length), on: device)
            } catch {
                release(device)
                throw error
            }
        }
    }

    static func requeue(slot: Int, page: (address: UnsafeMutableRawPointer, length: Int), on device: V4L2Device) throws(SystemCallError) {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(slot)
        buffer.type = cv4l2_BUF_TYPE_VIDEO_CAPTURE
        buffer.memory = cv4l2_MEMORY_USERPTR
        buffer.m.userptr = UInt(bitPattern: page.address)
        buffer.length = UInt32(page.length)
        try device.controlLendingMemory(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF(USERPTR into a loopback buffer)", &buffer)
    }

    /// REQBUFS 0: the driver drops its hold on the pages (after STREAMOFF, or before streaming),
    /// or frees its own buffers (`memory` MMAP, once they are unmapped).
    static func release(_ device: V4L2Device, memory: UInt32 = cv4l2_MEMORY_USERPTR) {
        var request = v4l2_requestbuffers()
        request.count = 0
        request.type = cv4l2_BUF_TYPE_VIDEO_CAPTURE
        request.memory = memory
        _ = try? device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS(USERPTR, 0)", &request)
    }
}
