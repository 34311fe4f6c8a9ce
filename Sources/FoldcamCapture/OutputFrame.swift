import FoldcamPlatform
import FoldcamVideo

/// What the virtual camera writes on each output tick, and the snapshot entry each write
/// leaves. Either a driver buffer held dequeued (a camera frame that needs no turn: written and
/// kept without a copy in user space) or a frame of the producer's own (a turned or generated
/// frame, or the last frame of a stream that stopped).
///
/// Confined to the producer thread. It owns no stream: the methods that let go of a held
/// buffer return it, and the producer queues it again on its stream.
struct OutputFrame {
    /// The held buffer being shown, its camera, and whether the ring keeps the buffer itself
    /// (its stream has buffers enough) or copies of it.
    private(set) var shown: (buffer: DriverBuffer, camera: String, inRing: Bool, lent: Bool)?
    /// The producer's own frame; unused while `shown` is set.
    private var frame: VideoFrame
    private let frames: HeldFrames
    /// Changes whenever the own frame's content does: a mapped loopback repeats an unchanged
    /// one without copying it again.
    private var version: UInt64 = 0
    /// When the snapshot ring last copied a frame shown from a loopback page (zero-copy).
    private var lastRingCopy: UInt64?
    /// How often the ring copies frames shown from loopback pages: the camera refills a page
    /// soon after it stops being shown, so the ring cannot keep it, and copying every frame
    /// would give back what zero-copy saves (docs/virtual-camera.md, "Frames are not copied").
    static let lentRingInterval: UInt64 = 100_000_000
    /// Where a lent page's frame is turned before it goes back into the page (`turnAndHold`);
    /// allocated at the first software turn on the zero-copy path.
    private var scratch: [UInt8] = []

    /// Whether the frame shown is a camera's capture straight into a loopback page.
    var showsLentBuffer: Bool { shown?.lent == true }
    /// The camera whose frame is shown (held, or copied into the own frame), if any.
    var cameraShown: String? { shown?.camera ?? frame.source }

    init(_ frame: VideoFrame, frames: HeldFrames) {
        self.frame = frame
        self.frames = frames
    }

    private var byteCount: Int { frame.format.byteCount(width: frame.width, height: frame.height) }

    /// Shows a dequeued driver buffer, as it is, from now on. Returns the buffers let go.
    /// `lent`: the buffer is a loopback page the camera captured into (zero-copy).
    mutating func hold(_ buffer: DriverBuffer, camera: String, inRing: Bool, lent: Bool = false) -> ReleasedBuffers {
        precondition(buffer.bytes.count >= byteCount, "driver buffer shorter than a frame")
        shown = (buffer, camera, inRing, lent)
        return ReleasedBuffers(frames.show(buffer))
    }

    /// Turns a camera's capture in the loopback page it was captured into (zero-copy with a
    /// software turn), then shows that page as `hold` does. The turn goes through a scratch frame
    /// and back into the page (a turn cannot read and write the same bytes), so the page's
    /// bookkeeping is the zero-copy one: the turned frame never goes into a page another camera
    /// is lent, and needs no free page of the daemon's own (four are all v4l2loopback gives).
    mutating func turnAndHold(_ buffer: DriverBuffer, camera: String, transform: FrameTransform.Operation) -> ReleasedBuffers {
        let count = byteCount
        precondition(buffer.bytes.count >= count, "driver buffer shorter than a frame")
        if scratch.count != count { scratch = [UInt8](repeating: 0, count: count) }
        let page = UnsafeMutableRawPointer(mutating: buffer.bytes.baseAddress!)
        let input = UnsafeBufferPointer(start: page.assumingMemoryBound(to: UInt8.self), count: count)
        scratch.withUnsafeMutableBufferPointer { turned in
            FrameTransform.apply(transform, format: frame.format, width: frame.width, height: frame.height, from: input, into: turned)
            page.copyMemory(from: turned.baseAddress!, byteCount: count)
        }
        return hold(buffer, camera: camera, inRing: false, lent: true)
    }

    /// Shows a copy of a driver buffer's frame, turned by `transform` on the way (the only
    /// copy). Returns the buffers let go.
    mutating func copy(_ bytes: UnsafeRawBufferPointer, timestamp: UInt64, camera: String, transform: FrameTransform.Operation) -> ReleasedBuffers {
        let count = byteCount
        precondition(bytes.count >= count, "driver buffer shorter than a frame")
        let input = UnsafeBufferPointer(start: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
        frame.bytes.withUnsafeMutableBufferPointer { output in
            if transform == .identity {
                UnsafeMutableRawPointer(output.baseAddress!).copyMemory(from: input.baseAddress!, byteCount: count)
            } else {
                FrameTransform.apply(transform, format: frame.format, width: frame.width, height: frame.height, from: input, into: output)
            }
        }
        frame.timestamp = timestamp
        frame.source = camera
        version &+= 1
        return showOwnFrame()
    }

    /// Shows `source` (a generated frame), turned by `transform`. Returns the buffers let go.
    mutating func set(_ source: VideoFrame, transform: FrameTransform.Operation) -> ReleasedBuffers {
        if transform == .identity {
            frame = source
        } else {
            FrameTransform.apply(transform, to: source, into: &frame)
        }
        version &+= 1
        return showOwnFrame()
    }

    /// Before the stream `serial` is handed over to stop: a frame of it still shown becomes a
    /// copy of the producer's own, since the output repeats it until another camera delivers
    /// (one copy per switch). Its buffer is not queued again; stopping reclaims it.
    mutating func keep(stream serial: UInt64) {
        guard let shown, shown.buffer.stream == serial else { return }
        frame.bytes = Array(shown.buffer.bytes[0..<byteCount])
        frame.source = shown.camera
        version &+= 1
        self.shown = nil
        _ = frames.show(nil)
    }

    /// The bytes of the frame shown, for a sink that copies them out.
    func withShownBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let shown { return body(UnsafeRawBufferPointer(rebasing: shown.buffer.bytes[0..<byteCount])) }
        return frame.bytes.withUnsafeBytes(body)
    }

    /// Writes the frame shown to the loopback.
    func write(to output: LoopbackOutput) throws(SystemCallError) {
        if let shown {
            try output.write(UnsafeRawBufferPointer(rebasing: shown.buffer.bytes[0..<byteCount]))
        } else {
            try output.write(frame)
        }
    }

    /// Queues the frame shown to a mapped loopback, on the page `policy` picks: a loopback page
    /// the camera filled as it is, anything else copied into a free page (an unchanged own frame
    /// only once). False when no page was free for a copy: the loopback keeps showing what it
    /// showed.
    func publish(to loopback: some PagedFrameSink, policy: inout ForwardingPolicy) throws(SystemCallError) -> Bool {
        if let shown, shown.lent, let page = shown.buffer.page {
            try loopback.perform(policy.publishLent(page: page), copying: nil)
            return true
        }
        let (publish, published) = policy.publishOwn(version: shown == nil ? version : nil)
        if let shown {
            try loopback.perform(publish, copying: UnsafeRawBufferPointer(rebasing: shown.buffer.bytes[0..<byteCount]))
        } else {
            let outcome = frame.bytes.withUnsafeBytes { bytes -> SystemCallError? in
                do throws(SystemCallError) { try loopback.perform(publish, copying: bytes) } catch { return error }
                return nil
            }
            if let outcome { throw outcome }
        }
        return published
    }

    /// Records in the snapshot ring that the frame shown was written at `now`. Returns the
    /// buffers let go (the one the ring's oldest entry held, unless newer entries hold it).
    mutating func record(at now: UInt64) -> ReleasedBuffers {
        frame.timestamp = now
        guard let shown else {
            return ReleasedBuffers(frame.bytes.withUnsafeBytes { frames.append(copying: $0, timestamp: now, source: frame.source) })
        }
        if shown.lent {
            // A loopback page: copied at the ring's own lower rate (`lentRingInterval`).
            if let last = lastRingCopy, now >= last, now - last < Self.lentRingInterval {
                // Not copied: a snapshot copies it from the page while it is still shown.
                frames.noteShownWrite(timestamp: now, source: shown.camera)
                return .none
            }
            lastRingCopy = now
        }
        // A copy of a shown buffer only keeps a past frame: made while someone may ask for one
        // (`HeldFrames.keepHistory`), else the write is noted and the buffer copied on request.
        return ReleasedBuffers(shown.inRing
            ? frames.append(held: shown.buffer, timestamp: now, source: shown.camera)
            : frames.append(copying: UnsafeRawBufferPointer(rebasing: shown.buffer.bytes[0..<byteCount]), timestamp: now, source: shown.camera, history: true))
    }

    private mutating func showOwnFrame() -> ReleasedBuffers {
        guard shown != nil else { return .none }
        shown = nil
        return ReleasedBuffers(frames.show(nil))
    }
}
