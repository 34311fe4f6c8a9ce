import FoldcamPlatform
import FoldcamV4L2

/// A camera capturing into loopback pages (`V4L2_MEMORY_USERPTR`): the zero-copy path. Slot i
/// of the capture queue always gets page i, so a dequeued slot names its page and the producer
/// hands the loopback exactly the bytes the camera driver wrote.
extension CaptureStream {
    /// REQBUFS(USERPTR) and QBUF of every page; throws when the camera refuses any of it or its
    /// negotiated frame does not fit a page as it is.
    static func lend(_ lending: LentPages, to queue: V4L2BufferQueue<V4L2Capture, V4L2UserPointer>, negotiated: V4L2FrameLayout) throws(SystemCallError) {
        if let mismatch = ForwardingPlan.layoutFits(
            cameraBytesPerLine: negotiated.bytesPerLine, cameraFrameBytes: negotiated.frameBytes,
            loopbackBytesPerLine: lending.bytesPerLine, loopbackBufferBytes: lending.pages.map(\.length).min() ?? 0) {
            throw SystemCallError("capture into the loopback's buffers: \(mismatch)", .invalidArgument, subject: queue.device.node)
        }
        let granted = try queue.request(lending.pages.count)
        // A driver that wants more buffers queued than there are pages would never start.
        guard granted <= lending.pages.count else {
            queue.release()
            throw SystemCallError("VIDIOC_REQBUFS(USERPTR): the camera needs \(granted) buffers and \(lending.pages.count) are lent", .invalidArgument, subject: queue.device.node)
        }
        for (slot, page) in lending.pages.enumerated() {
            do {
                try queue.queue(slot, memory: page.address, length: page.length)
            } catch {
                queue.release()
                throw error
            }
        }
    }
}
