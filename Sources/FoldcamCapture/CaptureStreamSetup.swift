import FoldcamPlatform
import FoldcamVideo
import Synchronization

/// A capture stream on its way from one thread to another.
///
/// `@unchecked Sendable` because a camera source is not thread-safe, but it is never shared:
/// it belongs to one thread at a time and this box is how it changes hands. The sender posts
/// the box and keeps no use of the stream afterwards (it drops it from its tables), so only the
/// receiver touches it from then on. The stream shares nothing with anything else: its
/// descriptor and mmap'ed buffers are its own.
struct CaptureStreamTransfer: @unchecked Sendable {
    let stream: any CameraSource
}

/// The virtual camera's device setup thread: the blocking parts of a camera stream's life, so
/// the producer thread never misses an output tick while a camera starts or stops. Starting
/// one (open, S_FMT, S_PARM, REQBUFS, QUERYBUF + mmap, QBUF, STREAMON) takes tens of
/// milliseconds on vivid and can take hundreds on a USB camera; stopping one (STREAMOFF,
/// munmap, close) a few.
///
/// The producer posts requests; a started stream comes back to it, streaming, as a result.
/// Requests run one at a time in the order they were posted, so a stop posted before an open of
/// the same device releases the device first.
final class CaptureStreamSetup: Sendable {
    enum Request: Sendable {
        /// Open `node` and start streaming; `ticket` comes back with the result. With `lending`,
        /// try capturing into those loopback pages first (zero-copy), else the driver's own:
        /// `bufferCount` of them when given (a stream that will soon be reopened into pages),
        /// else the setup's count.
        case open(camera: String, node: String, ticket: UInt64, lending: LentPages? = nil, bufferCount: UInt32? = nil)
        /// Stop and close a stream handed over by the producer.
        case stop(CaptureStreamTransfer)
        /// Leave the thread once the requests before this one are done.
        case finish
    }

    enum Result: Sendable {
        /// `path`: how its frames reach the loopback (why not zero-copy, when pages were lent).
        case opened(camera: String, ticket: UInt64, CaptureStreamTransfer, path: ForwardingPath?)
        case failed(camera: String, ticket: UInt64, SystemCallError)
        /// A stream that captured into loopback pages stopped (STREAMOFF, REQBUFS 0): the
        /// driver writes them no more, so they can be lent or filled again.
        case returned(lender: UInt64)
    }

    let requests: Mailbox<Request>
    let results: Mailbox<Result>
    private let mode: StreamMode
    private let opener: any CameraSourceOpener
    private let bufferCount: UInt32
    /// The producer's snapshot ring, which may hold buffers of a stream about to stop.
    private let frames: HeldFrames?
    /// Set when the producer shuts down: opens not yet started are skipped.
    private let finishing = Atomic<Bool>(false)

    /// `bufferCount`: the driver buffers each stream asks for (enough for the producer to hold
    /// a snapshot ring's worth of them).
    /// `opener`: how cameras are opened (V4L2 unless a test's).
    init(format: PixelFormat, width: Int, height: Int, fps: Double, capturesMJPG: Bool = false, bufferCount: UInt32 = 4, frames: HeldFrames? = nil,
         opener: any CameraSourceOpener = V4L2CameraOpener()) throws(SystemCallError) {
        mode = StreamMode(format: format, width: width, height: height, fps: fps, capturesMJPG: capturesMJPG)
        self.opener = opener
        self.bufferCount = bufferCount
        self.frames = frames
        requests = try Mailbox()
        results = try Mailbox()
    }

    /// Starts the thread; the caller joins it after posting `.finish` (see `finish()`).
    func start() throws(SystemCallError) -> OSThread {
        try OSThread.start(name: "foldcam-setup") { self.run() }
    }

    /// Skips the opens still waiting and posts `.finish`.
    func finish() {
        finishing.store(true, ordering: .releasing)
        requests.post(.finish)
    }

    private func run() {
        var waiting = PollSet()
        waiting.append(requests.descriptor.rawValue)
        while true {
            // Cannot fail for one valid descriptor; the drain below finds nothing if it did.
            _ = try? waiting.wait(timeoutMilliseconds: -1)
            for request in requests.drain() {
                if !perform(request) { return }
            }
        }
    }

    /// Carries out one request on the calling thread; false for `.finish`. The producer calls it
    /// directly only when the system refused it this thread.
    func perform(_ request: Request) -> Bool {
        switch request {
        case let .open(camera, node, ticket, lending, transientCount):
            guard !finishing.load(ordering: .acquiring) else { return true }
            var path: ForwardingPath?
            if let lending {
                do {
                    let stream = try opener.open(camera: camera, node: node, mode: mode, bufferCount: bufferCount, lending: lending)
                    results.post(.opened(camera: camera, ticket: ticket, CaptureStreamTransfer(stream: stream), path: .zeroCopy))
                    return true
                } catch {
                    // The refused attempt's descriptor is closed by now: the camera is free to
                    // open again, with its own buffers.
                    path = .copy(.cameraRefused("\(error)"))
                }
            }
            do {
                // A camera that refused the pages keeps its own buffers for good: the full count.
                let count = lending == nil ? transientCount ?? bufferCount : bufferCount
                let stream = try opener.open(camera: camera, node: node, mode: mode, bufferCount: count, lending: nil)
                results.post(.opened(camera: camera, ticket: ticket, CaptureStreamTransfer(stream: stream), path: path))
            } catch {
                results.post(.failed(camera: camera, ticket: ticket, error))
            }
        case let .stop(transfer):
            // Snapshots keep their copies of its frames; then its buffers can be unmapped. The
            // descriptor closes when the last reference, the transfer's, goes at the end of the
            // drained batch: on this thread too.
            frames?.detach(stream: transfer.stream.serial)
            transfer.stream.stop()
            if let lender = transfer.stream.lender { results.post(.returned(lender: lender)) }
        case .finish:
            return false
        }
        return true
    }
}
