import CV4L2
import FoldcamPlatform
import FoldcamV4L2

/// The loopback's own output buffers, mapped into the daemon (MMAP streaming on v4l2loopback's
/// output side): the zero-copy path's output (see `ForwardingPlan`). A camera captures straight
/// into some of them (`CaptureStream`'s lent memory) and a filled one is queued to the loopback
/// as it is; the daemon's own frames (idle, unavailable, turned, copied from a camera that
/// keeps its own buffers) are copied into a free one first. Once mapped, nothing is write()n:
/// v4l2loopback 0.12.7's write() fills buffer `write_position % used_buffers`, which may be one
/// a camera is capturing into.
///
/// Confined to the producer thread. Its pages stay mapped until it goes, which the producer
/// lets happen only after every stream capturing into them stopped (STREAMOFF, REQBUFS 0).
final class MappedLoopback {
    struct Page {
        let address: UnsafeMutableRawPointer
        let length: Int
        /// Its offset in the device (VIDIOC_QUERYBUF), which tells it from the others.
        let offset: UInt32
    }

    private let device: V4L2Device
    let pages: [Page]
    private(set) var book: LoopbackPageBook
    let frameBytes: Int
    let bytesPerLine: Int
    /// The version of the daemon's own frame the shown page holds, if it holds one: repeating
    /// an unchanged frame queues the same page again rather than copying it again.
    private var shownOwnVersion: UInt64?

    /// Maps the output buffers of `output`, or says why the copy path runs instead.
    ///
    /// VIDIOC_REQBUFS only when the driver needs it (it answers VIDIOC_QUERYBUF only after it):
    /// v4l2loopback 0.12.7 answers QUERYBUF from the start, and its REQBUFS resets every buffer's
    /// flags, so a reader that is streaming already (a restarted daemon) would fail its next
    /// VIDIOC_DQBUF with EINVAL until the buffers are mapped again.
    static func map(_ output: LoopbackOutput) -> Result<MappedLoopback, ForwardingFallback> {
        let device = output.device
        let count = ForwardingPlan.wantedLoopbackBuffers
        var probe = Self.bufferQuery(0)
        if (try? device.control(cv4l2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF(output)", &probe)) == nil {
            var request = v4l2_requestbuffers()
            request.count = UInt32(count)
            request.type = cv4l2_BUF_TYPE_VIDEO_OUTPUT
            request.memory = cv4l2_MEMORY_MMAP
            do {
                try device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS(output, MMAP)", &request)
            } catch {
                return .failure(.loopbackRefused("\(error)"))
            }
            if case let .copy(reason) = ForwardingPlan.outputPath(granted: Int(request.count)) { return .failure(reason) }
        }
        var pages: [Page] = []
        do {
            var type = Int32(cv4l2_BUF_TYPE_VIDEO_OUTPUT)
            try device.control(cv4l2_VIDIOC_STREAMON, "VIDIOC_STREAMON(output)", &type)
            var offsets: [UInt32] = []
            var lengths: [Int] = []
            for index in 0..<count {
                var buffer = Self.bufferQuery(UInt32(index))
                try device.control(cv4l2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF(output)", &buffer)
                guard Int(buffer.length) >= output.frameBytes else {
                    throw SystemCallError("VIDIOC_QUERYBUF(output): buffer of \(buffer.length) bytes for \(output.frameBytes)-byte frames", .invalidArgument, subject: output.node)
                }
                offsets.append(buffer.m.offset)
                lengths.append(Int(buffer.length))
            }
            // 0.12.7 answers an index beyond the buffers it uses with one it does use.
            let distinct = Set(offsets).count
            if case let .copy(reason) = ForwardingPlan.outputPath(granted: distinct) { return .failure(reason) }
            for index in 0..<count {
                let address = try device.mapBuffer(length: lengths[index], offset: Int(offsets[index]), index: UInt32(index))
                pages.append(Page(address: address, length: lengths[index], offset: offsets[index]))
            }
        } catch {
            for page in pages { Syscall.unmap(page.address, length: page.length) }
            return .failure(.loopbackRefused("\(error)"))
        }
        return .success(MappedLoopback(device: device, pages: pages, frameBytes: output.frameBytes, bytesPerLine: output.bytesPerLine))
    }

    private static func bufferQuery(_ index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = cv4l2_BUF_TYPE_VIDEO_OUTPUT
        buffer.memory = cv4l2_MEMORY_MMAP
        return buffer
    }

    /// Whether the loopback still uses every page as its own buffer. A reader that asks
    /// v4l2loopback 0.12.7 for fewer buffers lowers the number it uses for everyone, for good:
    /// then a page beyond it would be queued as another one (the index wraps), which a camera
    /// may be capturing into. One QUERYBUF per frame tells.
    func stillDistinct() -> Bool {
        var buffer = Self.bufferQuery(UInt32(pages.count - 1))
        guard (try? device.control(cv4l2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF(output)", &buffer)) != nil else { return false }
        return buffer.m.offset == pages[pages.count - 1].offset
    }

    /// Whether a camera opened now would get pages.
    var canLend: Bool {
        var trial = book
        if case .success = trial.lend(to: .max) { return true }
        return false
    }

    private init(device: V4L2Device, pages: [Page], frameBytes: Int, bytesPerLine: Int) {
        self.device = device
        self.pages = pages
        self.frameBytes = frameBytes
        self.bytesPerLine = bytesPerLine
        book = LoopbackPageBook(count: pages.count)
    }

    deinit {
        for page in pages { Syscall.unmap(page.address, length: page.length) }
    }

    /// Pages for a camera to capture into, keyed by `lender`; nil (and why) when none can go.
    func lend(to lender: UInt64) -> Result<LentPages, ForwardingFallback> {
        book.lend(to: lender).map { indices in
            LentPages(lender: lender, pages: indices.map { pages[$0] }, bytesPerLine: bytesPerLine, frameBytes: frameBytes)
        }
    }

    func cancel(lender: UInt64) { book.cancel(stream: lender) }
    func retire(lender: UInt64) { book.retire(stream: lender) }
    func stopped(lender: UInt64) { book.stopped(stream: lender) }

    /// Queues the page a camera captured into (`address`, a lent page) to the loopback as it is.
    func publish(lent address: UnsafeRawPointer) throws(SystemCallError) {
        guard let index = pages.firstIndex(where: { UnsafeRawPointer($0.address) == address }) else {
            preconditionFailure("a lent capture buffer that is no loopback page")
        }
        try queue(index)
        shownOwnVersion = nil
    }

    /// Copies a frame of the daemon's own (`version` names its content; nil: always copy) into a
    /// free page and queues that. False when no page was free: the shown page is then queued
    /// again, so readers still get a frame every tick (the last one, as on any switch) and never
    /// a gap, e.g. while a camera is reopened into the pages (they are lent from the moment it
    /// is asked to open; the frame kept from its previous stream is the one shown).
    @discardableResult
    func publish(copying bytes: UnsafeRawBufferPointer, version: UInt64?) throws(SystemCallError) -> Bool {
        if let version, version == shownOwnVersion, let shown = book.shown {
            try queue(shown)
            return true
        }
        guard let index = book.pageForOwnFrame() else {
            if let shown = book.shown { try queue(shown) }
            return false
        }
        pages[index].address.copyMemory(from: bytes.baseAddress!, byteCount: min(bytes.count, frameBytes))
        try queue(index)
        shownOwnVersion = version
        return true
    }

    private func queue(_ index: Int) throws(SystemCallError) {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = cv4l2_BUF_TYPE_VIDEO_OUTPUT
        buffer.memory = cv4l2_MEMORY_MMAP
        buffer.bytesused = UInt32(frameBytes)
        try device.control(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF(output)", &buffer)
        book.show(index)
    }
}

/// Loopback pages lent to one camera stream, on their way to the setup thread that starts it.
///
/// `@unchecked Sendable` because it carries addresses of the loopback's mapped buffers. The
/// stream only hands them to its driver (VIDIOC_QBUF with USERPTR) and reads frames the driver
/// filled and gave back; the producer's `LoopbackPageBook` keeps anyone else from filling them
/// while lent, and keeps them mapped until the stream stopped.
struct LentPages: @unchecked Sendable {
    /// Who they are lent to in the book (the open's ticket).
    let lender: UInt64
    let pages: [MappedLoopback.Page]
    let bytesPerLine: Int
    let frameBytes: Int
}
