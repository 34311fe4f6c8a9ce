import FoldcamCore

/// How the virtual camera's frames reach the loopback (issue 14 item 5), decided in pure code so
/// it can be tested without a kernel: which path runs and, for the copy path, why.
///
/// - zero-copy: the loopback's own output buffers are mapped (MMAP streaming on its output side)
///   and the camera captures straight into them (USERPTR); a captured buffer is queued to the
///   loopback as it is, so the camera driver is the only writer of those bytes.
/// - copy: the camera streams into its own buffers and each shown frame is copied once, by the
///   kernel's write() or (when the loopback's buffers are mapped) into a free loopback buffer.
public enum ForwardingPath: Equatable, Sendable, CustomStringConvertible {
    case zeroCopy
    case copy(ForwardingFallback)

    public var description: String {
        switch self {
        case .zeroCopy: "zero-copy (the camera captures into the loopback's buffers)"
        case let .copy(reason): "one copy per frame (\(reason))"
        }
    }
}

/// Why a frame is copied rather than captured straight into the loopback.
public enum ForwardingFallback: Error, Equatable, Sendable, CustomStringConvertible {
    /// `virtualCameraForwarding: "copy"` in the daemon's config.
    case configured
    /// The rig mirrors the virtual camera: every frame is turned in software anyway.
    case mirrored
    /// The loopback refused MMAP streaming on its output side (the call and its error).
    case loopbackRefused(String)
    /// The loopback uses fewer buffers than zero-copy needs: v4l2loopback's `max_buffers` (2 by
    /// default), or fewer that a reader asked for (0.12.7 then uses that many for everyone).
    case tooFewLoopbackBuffers(granted: Int, needed: Int)
    /// While zero-copy ran, a reader asked the loopback for fewer buffers, which v4l2loopback
    /// 0.12.7 then uses for everyone: a page would be queued as another.
    case readerShrankLoopback
    /// The loopback's free buffers are lent to other cameras (a pre-warmed camera while the fed
    /// one holds them).
    case buffersLent
    /// The camera refused to capture into user memory (the call and its error).
    case cameraRefused(String)
    /// The camera's frame does not fit the loopback's buffer as it is (size or line stride).
    case layoutMismatch(String)
    /// A synthetic camera (`--simulate`): frames are drawn by the daemon.
    case synthetic
    /// The camera's stream feeds another virtual camera too (docs/virtual-camera.md, "One
    /// camera, two virtual cameras"): both take a copy.
    case sharedCamera

    public var description: String {
        switch self {
        case .configured: "virtualCameraForwarding is \"copy\" in the config"
        case .mirrored: "the rig mirrors the virtual camera, which needs a copy in software"
        case let .loopbackRefused(call): "the loopback refused mapped output buffers: \(call)"
        case let .tooFewLoopbackBuffers(granted, needed): "the loopback uses \(granted) buffers and zero-copy needs \(needed): load v4l2loopback with max_buffers=\(ForwardingPlan.wantedLoopbackBuffers) (module option); a reader that asked it for fewer lowers that for everyone until the module is reloaded"
        case .readerShrankLoopback: "a reader asked the loopback for fewer buffers than zero-copy needs, and v4l2loopback now uses that many for every opener (restart foldcamd once no such reader is left, or reload v4l2loopback)"
        case .buffersLent: "the loopback's spare buffers are lent to another camera (the camera is reopened into them once they are back)"
        case let .cameraRefused(call): "the camera refused to capture into the loopback's buffers: \(call)"
        case let .layoutMismatch(what): "the camera's frame layout differs from the loopback's: \(what)"
        case .synthetic: "a synthetic camera is drawn by the daemon"
        case .sharedCamera: "the camera also feeds another virtual camera: every output gets one copy"
        }
    }
}

/// The decisions, with no I/O.
public enum ForwardingPlan {
    /// Capture buffers a zero-copy camera gets: the one shown, the one shown before it (a
    /// reader of v4l2loopback 0.12.7 may be a frame behind and read that one), and one for the
    /// camera to fill; three also lets drivers that start streaming only with two queued
    /// (videobuf2's `min_buffers_needed`, vivid's) start.
    ///
    /// The readers' rule, from 0.12.7's source (`get_capture_buffer`): a reader's DQBUF gets the
    /// newest frame or the one before it (a reader more than one write behind is moved to the
    /// newest); it then reads the mapped buffer for as long as it likes, and its QBUF tells the
    /// module nothing. So the page shown before the newest goes back to its camera only when
    /// `lingerIsOver`: most of an output interval after a newer frame was shown. A reader that
    /// holds a frame longer than that can see it refilled; holding it longer would leave the
    /// camera nothing to fill. docs/virtual-camera.md says so; `copy` avoids it.
    public static let pagesPerStream = 3
    /// Loopback buffers zero-copy needs: one camera's three, and one for the daemon's own
    /// frames (idle, unavailable, turned, copied).
    public static let neededLoopbackBuffers = pagesPerStream + 1
    /// What the daemon uses, and no more: v4l2loopback 0.12.7 serves every opener from the same
    /// buffers and uses only as many as the smallest number any opener asked for; browsers and
    /// most readers ask for 4, so a fifth buffer of ours would alias the first.
    public static let wantedLoopbackBuffers = neededLoopbackBuffers
    /// How often, in output ticks, the producer asks the loopback whether a reader made it use
    /// fewer buffers (one VIDIOC_QUERYBUF; issue 29 counts every ioctl per frame): until it
    /// notices, for up to this many frames, a reader can be shown a page being refilled.
    public static let distinctCheckTicks = 5

    /// Whether a frame stamped `timestamp` (CLOCK_MONOTONIC ns), dequeued at the output tick
    /// `now`, is the newest the camera can have, so that no second DQBUF is spent to hear
    /// EAGAIN: it was captured within the last output interval. A frame older than that (the
    /// thread fell behind) or stamped by another clock (later than `now`) is not: the camera
    /// is asked again until it has nothing more.
    public static func isNewestAtTick(timestamp: UInt64, now: UInt64, interval: UInt64) -> Bool {
        timestamp <= now && now - timestamp < interval
    }

    /// Whether a page that stopped being the loopback's newest frame at `since` may go back to
    /// its camera at `now`: a reader that dequeued it just before may read it for up to one
    /// output interval. Counting frames alone gave it back at the next tick, which after a late
    /// tick can come 13 ms later (a torn frame for that reader, seen in the guest soak); a
    /// quarter of an interval is left for the ticks' own jitter.
    public static func lingerIsOver(since: UInt64, now: UInt64, interval: UInt64) -> Bool {
        now >= since && now - since >= interval - interval / 4
    }

    /// Whether the loopback's output side should be mapped at all, before asking the driver.
    public static func outputPath(setting: DaemonConfig.VirtualCameraForwarding, mirror: Bool) -> ForwardingPath {
        if setting == .copy { return .copy(.configured) }
        if mirror { return .copy(.mirrored) }
        return .zeroCopy
    }

    /// After VIDIOC_REQBUFS on the loopback's output side granted `granted` buffers.
    public static func outputPath(granted: Int) -> ForwardingPath {
        granted >= neededLoopbackBuffers ? .zeroCopy : .copy(.tooFewLoopbackBuffers(granted: granted, needed: neededLoopbackBuffers))
    }

    /// Whether a camera's frame can be captured into a loopback buffer as it is: the same
    /// line stride, and a frame no larger than the buffer.
    public static func layoutFits(cameraBytesPerLine: Int, cameraFrameBytes: Int, loopbackBytesPerLine: Int, loopbackBufferBytes: Int) -> ForwardingFallback? {
        if cameraBytesPerLine != loopbackBytesPerLine {
            return .layoutMismatch("line stride \(cameraBytesPerLine) against the loopback's \(loopbackBytesPerLine) bytes")
        }
        if cameraFrameBytes > loopbackBufferBytes {
            return .layoutMismatch("frame \(cameraFrameBytes) bytes against the loopback's \(loopbackBufferBytes)-byte buffers")
        }
        return nil
    }
}

/// Who has each of the loopback's mapped output buffers ("pages"): the bookkeeping behind
/// zero-copy, with no I/O. A page is free, lent to a camera stream (it captures into it), or
/// being given back (its stream is stopping: the driver may still write it until STREAMOFF and
/// REQBUFS 0 are done). Separately, one page is shown: the last one queued to the loopback,
/// which readers may be reading, so nobody else writes it until another page is shown.
public struct LoopbackPageBook: Equatable, Sendable {
    public enum Owner: Equatable, Sendable {
        case free
        case lent(stream: UInt64)
        case returning(stream: UInt64)
    }

    public private(set) var owners: [Owner]
    public private(set) var shown: Int?
    /// When each page was last shown, in shows counted from 0 (`pageForOwnFrame`).
    private var lastShown: [UInt64]
    private var shows: UInt64 = 0

    public init(count: Int) {
        owners = Array(repeating: .free, count: count)
        lastShown = Array(repeating: 0, count: count)
    }

    /// Pages for a new stream, `ForwardingPlan.pagesPerStream` of them, or the reason there are
    /// none: lending must leave a free page besides, for the daemon's own frames. Never the
    /// shown page: readers may be reading it.
    public mutating func lend(to stream: UInt64) -> Result<[Int], ForwardingFallback> {
        let free = owners.indices.filter { owners[$0] == .free }
        let lendable = free.filter { $0 != shown }
        guard free.count - ForwardingPlan.pagesPerStream >= 1, lendable.count >= ForwardingPlan.pagesPerStream else {
            return .failure(.buffersLent)
        }
        let pages = Array(lendable.prefix(ForwardingPlan.pagesPerStream))
        for page in pages { owners[page] = .lent(stream: stream) }
        return .success(pages)
    }

    /// A stream that did not start after all: its pages were never queued.
    public mutating func cancel(stream: UInt64) {
        for page in owners.indices where owners[page] == .lent(stream: stream) { owners[page] = .free }
    }

    /// The stream was handed over to stop: its pages stay unusable until `stopped`.
    public mutating func retire(stream: UInt64) {
        for page in owners.indices where owners[page] == .lent(stream: stream) { owners[page] = .returning(stream: stream) }
    }

    /// The stream stopped (STREAMOFF and REQBUFS 0 done): its pages are free.
    public mutating func stopped(stream: UInt64) {
        for page in owners.indices where owners[page] == .returning(stream: stream) || owners[page] == .lent(stream: stream) {
            owners[page] = .free
        }
    }

    /// A page to copy one of the daemon's own frames into: free, not shown, and of those the
    /// one shown longest ago. Frames copied one after another then go round every free page
    /// instead of alternating between two, so the page a reader one frame behind may read is
    /// written again frames later rather than at the next one.
    public func pageForOwnFrame() -> Int? {
        owners.indices.filter { owners[$0] == .free && $0 != shown }.min { lastShown[$0] < lastShown[$1] }
    }

    /// `page` was queued to the loopback.
    public mutating func show(_ page: Int) {
        if page != shown {
            shows += 1
            lastShown[page] = shows
        }
        shown = page
    }
}
