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
/// I/O only: who has which page, and which page a write goes to, is `ForwardingPolicy`'s.
/// Confined to the producer thread. Its pages stay mapped until it goes, which the producer
/// lets happen only after every stream capturing into them stopped (STREAMOFF, REQBUFS 0).
final class MappedLoopback {
    struct Page {
        /// Its index among the loopback's buffers.
        let index: Int
        var address: UnsafeMutableRawPointer
        let length: Int
        /// Its offset in the device (VIDIOC_QUERYBUF), which tells it from the others.
        let offset: UInt32
    }

    private let queue: V4L2BufferQueue<V4L2Output, V4L2Mapped>
    private(set) var pages: [Page]
    /// Where each page lies in the device, to map it again.
    private let places: [V4L2BufferPlace]
    let frameBytes: Int
    let bytesPerLine: Int
    /// Unmapped while the producer idles (`park`): the loopback keeps its buffers, and the
    /// frame queued last, without them in the daemon's memory.
    private(set) var parked = false

    /// Maps the output buffers of `output`, or says why the copy path runs instead.
    ///
    /// VIDIOC_REQBUFS only when the driver needs it (it answers VIDIOC_QUERYBUF only after it):
    /// v4l2loopback 0.12.7 answers QUERYBUF from the start, and its REQBUFS resets every buffer's
    /// flags, so a reader that is streaming already (a restarted daemon) would fail its next
    /// VIDIOC_DQBUF with EINVAL until the buffers are mapped again.
    static func map(_ output: LoopbackOutput) -> Result<MappedLoopback, ForwardingFallback> {
        let queue = output.device.queue(V4L2Output.self, V4L2Mapped.self)
        let count = ForwardingPlan.wantedLoopbackBuffers
        if (try? queue.query(0)) == nil {
            let granted: Int
            do {
                granted = try queue.request(count)
            } catch {
                return .failure(.loopbackRefused("\(error)"))
            }
            if case let .copy(reason) = ForwardingPlan.outputPath(granted: granted) { return .failure(reason) }
        }
        var pages: [Page] = []
        var places: [V4L2BufferPlace] = []
        do {
            try queue.streamOn()
            for index in 0..<count {
                let place = try queue.query(index)
                guard place.length >= output.frameBytes else {
                    throw SystemCallError("VIDIOC_QUERYBUF(output): buffer of \(place.length) bytes for \(output.frameBytes)-byte frames", .invalidArgument, subject: output.node)
                }
                places.append(place)
            }
            // 0.12.7 answers an index beyond the buffers it uses with one it does use.
            let distinct = Set(places.map(\.offset)).count
            if case let .copy(reason) = ForwardingPlan.outputPath(granted: distinct) { return .failure(reason) }
            for (index, place) in places.enumerated() {
                let address = try queue.map(index, at: place)
                pages.append(Page(index: index, address: address, length: place.length, offset: place.offset))
            }
        } catch {
            for page in pages { Syscall.unmap(page.address, length: page.length) }
            return .failure(.loopbackRefused("\(error)"))
        }
        return .success(MappedLoopback(device: output.device, pages: pages, places: places, frameBytes: output.frameBytes, bytesPerLine: output.bytesPerLine))
    }

    /// Whether the loopback still uses every page as its own buffer. A reader that asks
    /// v4l2loopback 0.12.7 for fewer buffers lowers the number it uses for everyone, for good:
    /// then a page beyond it would be queued as another one (the index wraps), which a camera
    /// may be capturing into. One QUERYBUF per frame tells.
    func stillDistinct() -> Bool {
        guard let place = try? queue.query(pages.count - 1) else { return false }
        return place.offset == pages[pages.count - 1].offset
    }

    private init(device: V4L2Device, pages: [Page], places: [V4L2BufferPlace], frameBytes: Int, bytesPerLine: Int) {
        queue = device.queue(V4L2Output.self, V4L2Mapped.self)
        self.pages = pages
        self.places = places
        self.frameBytes = frameBytes
        self.bytesPerLine = bytesPerLine
    }

    deinit {
        if !parked { for page in pages { Syscall.unmap(page.address, length: page.length) } }
    }

    /// Unmaps every page (none may be lent): an idle daemon then does not hold the loopback's
    /// buffers in its memory (2.4 MB at 640x480, 16 MB at 1080p). The loopback keeps showing
    /// the frame queued last.
    func park() {
        guard !parked else { return }
        for page in pages { Syscall.unmap(page.address, length: page.length) }
        parked = true
    }

    /// Maps the pages again, before anything is written or lent (their addresses change).
    func unpark() throws(SystemCallError) {
        guard parked else { return }
        var mapped: [UnsafeMutableRawPointer] = []
        do {
            for (page, place) in zip(pages, places) { mapped.append(try queue.map(page.index, at: place)) }
        } catch {
            for (address, page) in zip(mapped, pages) { Syscall.unmap(address, length: page.length) }
            throw error
        }
        for index in pages.indices { pages[index].address = mapped[index] }
        parked = false
    }

    /// The pages `ForwardingPolicy` lent to `lender`, for the setup thread that starts its stream.
    func lending(_ indices: [Int], to lender: UInt64) -> LentPages {
        precondition(!parked, "loopback pages lent while unmapped")
        return LentPages(lender: lender, pages: indices.map { pages[$0] }, bytesPerLine: bytesPerLine, frameBytes: frameBytes)
    }

    /// Carries out a write `ForwardingPolicy` placed; `bytes`: the daemon's frame, for a copy.
    func perform(_ publish: ForwardingPolicy.PagePublish, copying bytes: UnsafeRawBufferPointer?) throws(SystemCallError) {
        precondition(!parked, "a write to the loopback while its pages are unmapped")
        switch publish {
        case let .queue(page):
            try queue(page)
        case let .copyInto(page):
            guard let bytes else { preconditionFailure("a copy into a loopback page with nothing to copy") }
            pages[page].address.copyMemory(from: bytes.baseAddress!, byteCount: min(bytes.count, frameBytes))
            try queue(page)
        case .nothing:
            break
        }
    }

    private func queue(_ index: Int) throws(SystemCallError) {
        try queue.queue(index, bytesUsed: frameBytes)
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
