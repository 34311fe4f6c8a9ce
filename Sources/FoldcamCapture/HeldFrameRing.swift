import FoldcamVideo

/// A driver buffer the producer has dequeued and not queued again: the driver leaves it alone
/// meanwhile, so its bytes can be written to the loopback and kept for snapshots uncopied.
///
/// `@unchecked Sendable` because it carries a pointer into a stream's mmap'ed memory. That
/// memory is only read while the buffer is held: `HeldFrames` reads it under its lock, and a
/// buffer leaves the ring (under that lock) before it is queued again or unmapped.
struct DriverBuffer: @unchecked Sendable {
    /// The `serial` of the stream it belongs to.
    let stream: UInt64
    let index: Int
    let bytes: UnsafeRawBufferPointer
    /// The loopback page it is, when its stream captures into the loopback's pages (zero-copy).
    var page: Int?

    init(stream: UInt64, index: Int, bytes: UnsafeRawBufferPointer, page: Int? = nil) {
        self.stream = stream
        self.index = index
        self.bytes = bytes
        self.page = page
    }

    var id: BufferID { BufferID(stream: stream, index: index, page: page) }

    func isSame(as other: DriverBuffer) -> Bool { stream == other.stream && index == other.index }
}

/// The frames written in the last `span`, for zero-shutter-lag snapshots: a snapshot names a
/// moment and gets the frame written nearest to it. An entry either holds the driver buffer the
/// frame was written from (no copy: the common case, an upright camera) or owns its bytes
/// (turned or generated frames, and frames of a stream that has stopped since).
///
/// Bookkeeping only, no I/O: it tracks which driver buffers it (or the output) still needs and
/// hands back the ones it lets go, for the producer to queue again. A buffer is let go when no
/// entry holds it and it is not the one the output writes.
struct HeldFrameRing {
    enum Pixels {
        case held(DriverBuffer)
        case owned([UInt8])
    }

    struct Entry {
        var timestamp: UInt64
        var source: String?
        var pixels: Pixels
    }

    let format: PixelFormat
    let width: Int
    let height: Int
    /// How far back the ring reaches, in nanoseconds.
    let span: UInt64
    private var slots: [Entry?]
    private var next = 0
    /// The buffer the output writes on every tick, held while it is shown even if no entry
    /// holds it (yet, or any more).
    private(set) var shown: DriverBuffer?
    /// When the shown buffer was last written, and its camera, if no entry records that write:
    /// on the zero-copy path the ring copies frames at a lower rate (`OutputFrame`), and a
    /// snapshot still finds the frame on screen, copied on request.
    private var shownWrite: (timestamp: UInt64, source: String?)?

    /// Holds `span` nanoseconds of frames written at up to `fps` frames per second.
    init(span: UInt64, fps: Double, format: PixelFormat, width: Int, height: Int) {
        self.span = span
        self.format = format
        self.width = width
        self.height = height
        slots = Array(repeating: nil, count: Self.capacity(span: span, fps: fps))
    }

    static func capacity(span: UInt64, fps: Double) -> Int {
        max(2, Int((Double(span) / 1e9 * fps).rounded(.up)) + 1)
    }

    var capacity: Int { slots.count }
    var count: Int { slots.count { $0 != nil } }
    var byteCount: Int { format.byteCount(width: width, height: height) }

    /// Makes `buffer` the one the output writes (nil: an owned frame). Returns the buffers no
    /// longer needed.
    mutating func show(_ buffer: DriverBuffer?) -> [DriverBuffer] {
        let previous = shown
        shown = buffer
        if let previous, let buffer, previous.isSame(as: buffer) {} else { shownWrite = nil }
        guard let previous, buffer.map({ !$0.isSame(as: previous) }) ?? true else { return [] }
        return isHeld(previous) ? [] : [previous]
    }

    /// Records a write of the shown buffer without an entry (nor a copy): found by `nearest`
    /// while it stays shown.
    mutating func noteShownWrite(timestamp: UInt64, source: String?) {
        guard shown != nil else { return }
        shownWrite = (timestamp, source)
    }

    /// Records a write of `buffer`, keeping the buffer itself. Returns the buffers no longer
    /// needed (the one whose last entry this evicted).
    mutating func append(held buffer: DriverBuffer, timestamp: UInt64, source: String?) -> [DriverBuffer] {
        let evicted = slots[next]
        slots[next] = Entry(timestamp: timestamp, source: source, pixels: .held(buffer))
        next = (next + 1) % slots.count
        return released(evicted)
    }

    /// Records a write of `bytes` with a copy of its own, into the evicted entry's storage when
    /// it has one of the right size. The storage is moved out of the slot before the write (the
    /// evicted entry must not keep a second reference to it): otherwise the write would copy
    /// the whole array first, a fresh allocation per frame (issue 29).
    /// Returns the buffers no longer needed.
    mutating func append(copying bytes: UnsafeRawBufferPointer, timestamp: UInt64, source: String?) -> [DriverBuffer] {
        let count = byteCount
        precondition(bytes.count >= count, "frame shorter than its format")
        var storage: [UInt8] = []
        var evictedBuffer: DriverBuffer?
        if let evicted = slots[next] {
            switch evicted.pixels {
            case let .held(buffer): evictedBuffer = buffer
            case .owned: storage = takeOwnedStorage(at: next)
            }
        }
        slots[next] = nil
        if storage.count == count {
            storage.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<count])) }
        } else {
            storage = Array(bytes[0..<count])
        }
        slots[next] = Entry(timestamp: timestamp, source: source, pixels: .owned(storage))
        next = (next + 1) % slots.count
        guard let evictedBuffer, !isHeld(evictedBuffer) else { return [] }
        return [evictedBuffer]
    }

    /// Empties the entries that own their bytes (copies), freeing them; entries holding a
    /// driver buffer stay, so nothing has to be queued again.
    mutating func dropCopies() {
        for slot in slots.indices {
            if let entry = slots[slot], case .owned = entry.pixels { slots[slot] = nil }
        }
    }

    /// Moves an owned entry's bytes out of `slot`, leaving the slot empty and the array's only
    /// reference with the caller.
    private mutating func takeOwnedStorage(at slot: Int) -> [UInt8] {
        guard var entry = slots[slot] else { return [] }
        slots[slot] = nil
        guard case let .owned(bytes) = entry.pixels else { return [] }
        entry.pixels = .owned([])
        return bytes
    }

    /// Where an owned entry keeps its bytes (nil for a held buffer or an empty slot): for tests
    /// that a reused slot is written in place.
    func ownedStorageAddress(slot: Int) -> UnsafeRawPointer? {
        guard let entry = slots[slot], case let .owned(bytes) = entry.pixels else { return nil }
        return bytes.withUnsafeBytes { $0.baseAddress }
    }

    /// The frame whose timestamp is nearest `timestamp`, if one is at most `span` from it. A
    /// held frame is copied out, so the caller keeps no pointer into driver memory.
    func nearest(to timestamp: UInt64) -> VideoFrame? {
        var best: Entry?
        var bestDistance = UInt64.max
        for case let entry? in slots {
            let distance = entry.timestamp > timestamp ? entry.timestamp - timestamp : timestamp - entry.timestamp
            if distance < bestDistance {
                best = entry
                bestDistance = distance
            }
        }
        if let shown, let write = shownWrite {
            let distance = write.timestamp > timestamp ? write.timestamp - timestamp : timestamp - write.timestamp
            if distance < bestDistance, distance <= span {
                let bytes = Array(shown.bytes[0..<byteCount])
                return VideoFrame(format: format, width: width, height: height, bytes: bytes, timestamp: write.timestamp, source: write.source)
            }
        }
        guard let best, bestDistance <= span else { return nil }
        let bytes: [UInt8]
        switch best.pixels {
        case let .owned(owned): bytes = owned
        case let .held(buffer): bytes = Array(buffer.bytes[0..<byteCount])
        }
        return VideoFrame(format: format, width: width, height: height, bytes: bytes, timestamp: best.timestamp, source: best.source)
    }

    /// The buffers of `stream` that entries hold, each once: what must be copied out before
    /// the stream stops.
    func heldBuffers(of stream: UInt64) -> [DriverBuffer] {
        var found: [DriverBuffer] = []
        for case let entry? in slots {
            guard case let .held(buffer) = entry.pixels, buffer.stream == stream, !found.contains(where: { $0.isSame(as: buffer) }) else { continue }
            found.append(buffer)
        }
        return found
    }

    /// Lets go of every buffer of `stream`: entries holding one get its copy from `copies`
    /// (indexed by buffer index), or are dropped when there is none. Nothing is handed back to
    /// queue: the stream is stopping.
    mutating func detach(stream: UInt64, copies: [Int: [UInt8]]) {
        if shown?.stream == stream {
            shown = nil
            shownWrite = nil
        }
        for slot in slots.indices {
            guard let entry = slots[slot], case let .held(buffer) = entry.pixels, buffer.stream == stream else { continue }
            if let copy = copies[buffer.index] {
                slots[slot]!.pixels = .owned(copy)
            } else {
                slots[slot] = nil
            }
        }
    }

    /// Whether the output or an entry still needs `buffer`.
    private func isHeld(_ buffer: DriverBuffer) -> Bool {
        if shown?.isSame(as: buffer) == true { return true }
        return slots.contains { entry in
            if let entry, case let .held(other) = entry.pixels { other.isSame(as: buffer) } else { false }
        }
    }

    private func released(_ evicted: Entry?) -> [DriverBuffer] {
        guard let evicted, case let .held(buffer) = evicted.pixels, !isHeld(buffer) else { return [] }
        return [buffer]
    }
}
