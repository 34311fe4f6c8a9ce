@testable import FoldcamCapture
import FoldcamPlatform
import FoldcamVideo
import Synchronization

/// A camera of the test's own (`CameraSource`): a frame every 20 ms (a timerfd, which is also
/// what poll() waits on), filled with the camera's byte. Into buffers of its own, or into the pages a `FakePagedSink` lent it.
/// Counts the buffers it has lent out, so a test sees every one come back.
final class FakeCamera: CameraSource, @unchecked Sendable {
    let camera: String
    let serial: UInt64
    let lender: UInt64?
    let value: UInt8
    private let slots: [UnsafeMutableRawBufferPointer]
    private let ownsMemory: Bool
    private var queued: [Int]
    private let clock: Timer
    /// When the frame clock started, and how many frames it has made: a frame's timestamp is
    /// when its interval ended, as a driver stamps a frame at its end.
    private let started = MonotonicClock.nanoseconds
    private var frames: UInt64 = 0
    private let log: FakeCameraLog
    /// Every frame's bytes, when not `value` repeated (an MJPG camera's JPEG).
    private let content: [UInt8]?

    init(camera: String, value: UInt8, bytes: Int, count: Int, lending: LentPages?, serial: UInt64, log: FakeCameraLog, content: [UInt8]? = nil) {
        self.camera = camera
        self.value = value
        self.content = content
        self.serial = serial
        self.log = log
        if let lending {
            lender = lending.lender
            slots = lending.pages.map { UnsafeMutableRawBufferPointer(start: $0.address, count: $0.length) }
            ownsMemory = false
        } else {
            lender = nil
            slots = (0..<count).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 16) }
            ownsMemory = true
        }
        queued = Array(slots.indices)
        clock = try! Timer()
        try! clock.schedule(after: .milliseconds(20), repeating: .milliseconds(20))
    }

    deinit {
        if ownsMemory { for slot in slots { slot.deallocate() } }
    }

    var bufferCount: Int { slots.count }
    var descriptor: Int32 { clock.descriptor.rawValue }
    func setFlipped(_ flipped: Bool) -> Bool { false }

    func dequeue() throws(SystemCallError) -> (buffer: DriverBuffer, timestamp: UInt64)? {
        log.asked(camera)
        guard !queued.isEmpty else { return nil }
        let elapsed = clock.acknowledge()
        guard elapsed > 0 else { return nil }
        frames += elapsed
        let index = queued.removeFirst()
        slots[index].initializeMemory(as: UInt8.self, repeating: value)
        var filled = UnsafeRawBufferPointer(slots[index])
        if let content {
            slots[index].copyBytes(from: content)
            filled = UnsafeRawBufferPointer(rebasing: filled[0..<content.count])
        }
        log.lent(camera, 1)
        let page = lender == nil ? nil : index
        return (DriverBuffer(stream: serial, index: index, bytes: filled, page: page), started + frames * 20_000_000)
    }

    /// What a lent page holds from its return until it is filled again: a driver may write a
    /// buffer as soon as it is queued, and this one does.
    static let beingFilled: UInt8 = 0xEE

    func requeue(_ index: Int) throws(SystemCallError) {
        precondition(!queued.contains(index), "\(camera): buffer \(index) given back twice")
        if lender != nil { slots[index].initializeMemory(as: UInt8.self, repeating: Self.beingFilled) }
        queued.append(index)
        log.lent(camera, -1)
    }

    func stop() {
        clock.cancel()
        log.stopped(camera, lent: lender != nil)
    }
}

/// What the fake cameras did, read by the test from its own thread.
final class FakeCameraLog: Sendable {
    struct State {
        var outstanding: [String: Int] = [:]
        var opened: [(camera: String, lent: Bool, buffers: Int)] = []
        var stops: [(camera: String, lent: Bool)] = []
        /// Dequeues asked of each camera, frame or not.
        var asked: [String: Int] = [:]
    }

    let state = Mutex(State())

    func lent(_ camera: String, _ change: Int) { state.withLock { $0.outstanding[camera, default: 0] += change } }
    func stopped(_ camera: String, lent: Bool) { state.withLock { $0.stops.append((camera, lent)) } }
    func asked(_ camera: String) { state.withLock { $0.asked[camera, default: 0] += 1 } }
    func opened(_ camera: String, lent: Bool, buffers: Int) { state.withLock { $0.opened.append((camera, lent, buffers)) } }
}

/// Opens `FakeCamera`s: node "/fake/N" gives a camera whose frames are all byte N.
struct FakeCameraOpener: CameraSourceOpener {
    let log: FakeCameraLog
    private static let serials = Atomic<UInt64>(1 << 40)

    func open(camera: String, node: String, mode: StreamMode, bufferCount: UInt32, lending: LentPages?) throws(SystemCallError) -> any CameraSource {
        guard node.hasPrefix("/fake/"), let value = UInt8(node.dropFirst(6)) else {
            throw SystemCallError("open", .noEntry, subject: node)
        }
        log.opened(camera, lent: lending != nil, buffers: lending?.pages.count ?? Int(bufferCount))
        let bytes = mode.format.byteCount(width: mode.width, height: mode.height)
        let serial = Self.serials.add(1, ordering: .relaxed).newValue
        return FakeCamera(camera: camera, value: value, bytes: bytes, count: Int(bufferCount), lending: lending, serial: serial, log: log)
    }
}

/// Opens MJPG `FakeCamera`s whose every frame is `jpeg`; refuses a stream not asked for MJPG.
struct FakeMJPGOpener: CameraSourceOpener {
    let jpeg: [UInt8]
    let log: FakeCameraLog

    func open(camera: String, node: String, mode: StreamMode, bufferCount: UInt32, lending: LentPages?) throws(SystemCallError) -> any CameraSource {
        guard mode.capturesMJPG, mode.captureFourCC == "MJPG", lending == nil else { throw SystemCallError("VIDIOC_S_FMT", .invalidArgument, subject: node) }
        log.opened(camera, lent: false, buffers: Int(bufferCount))
        let bytes = max(jpeg.count, mode.format.byteCount(width: mode.width, height: mode.height))
        return FakeCamera(camera: camera, value: 0, bytes: bytes, count: Int(bufferCount), lending: nil, serial: 1 << 41, log: log, content: jpeg)
    }
}

/// A sink that takes frames by copy, as v4l2loopback's write() does: records each frame's first
/// byte.
final class FakeWriteSink: FrameSink, @unchecked Sendable {
    let written = Mutex<[UInt8]>([])

    func send(_ frame: OutputFrame, policy: inout ForwardingPolicy) throws(SystemCallError) -> Bool {
        let first = frame.withShownBytes { $0.first ?? 0 }
        written.withLock { $0.append(first) }
        return true
    }
}

/// A sink with four pages of its own, as a mapped v4l2loopback: records the page each write
/// queued and its first byte. A reader may be reading the newest page until the next one is
/// queued: a newest page whose bytes changed by then is recorded in `torn`.
final class FakePagedSink: PagedFrameSink, @unchecked Sendable {
    let frameBytes: Int
    let memory: [UnsafeMutableRawBufferPointer]
    let queued = Mutex<[(page: Int, first: UInt8)]>([])
    let torn = Mutex<[String]>([])

    init(frameBytes: Int, pages: Int = ForwardingPlan.wantedLoopbackBuffers) {
        self.frameBytes = frameBytes
        memory = (0..<pages).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: frameBytes, alignment: 4096) }
    }

    deinit { for page in memory { page.deallocate() } }

    var pageCount: Int { memory.count }
    func stillDistinct() -> Bool { true }

    /// "park" and "unpark", in order; a write or a loan while parked is recorded as "misuse".
    let parking = Mutex<[String]>([])
    private var isParked: Bool { parking.withLock { $0.last == "park" } }
    func park() { parking.withLock { $0.append("park") } }
    func unpark() throws(SystemCallError) { parking.withLock { $0.append("unpark") } }

    func lending(_ indices: [Int], to lender: UInt64) -> LentPages {
        if isParked { parking.withLock { $0.append("misuse") } }
        let pages = indices.map { MappedLoopback.Page(index: $0, address: memory[$0].baseAddress!, length: frameBytes, offset: UInt32($0)) }
        return LentPages(lender: lender, pages: pages, bytesPerLine: 0, frameBytes: frameBytes)
    }

    func perform(_ publish: ForwardingPolicy.PagePublish, copying bytes: UnsafeRawBufferPointer?) throws(SystemCallError) {
        if isParked { parking.withLock { $0.append("misuse") } }
        if case .nothing = publish { return }
        queued.withLock { queued in
            if let newest = queued.last, memory[newest.page][0] != newest.first {
                torn.withLock { $0.append("page \(newest.page) was shown holding \(newest.first) and now holds \(memory[newest.page][0])") }
            }
            let page: Int
            switch publish {
            case let .queue(queuedPage): page = queuedPage
            case let .copyInto(copiedPage):
                page = copiedPage
                memory[page].copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes![0..<frameBytes]))
            case .nothing: return
            }
            queued.append((page, memory[page][0]))
        }
    }
}
