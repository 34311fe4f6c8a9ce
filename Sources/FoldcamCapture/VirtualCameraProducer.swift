import FoldcamCore
import FoldcamPlatform
import FoldcamVideo
import Synchronization

/// The one long-lived producer behind the virtual front camera. A dedicated thread owns every
/// device it uses (the loopback output and the cameras it streams from); the daemon only sends
/// it commands and receives events, so nothing here ever blocks the socket's event loop.
///
/// Each output tick writes one frame at the fixed rate: the newest frame of the camera being
/// fed, or the last frame again while a new camera starts (readers never see a gap, an error or
/// a format change), or the "camera unavailable" frame. A frame from a camera that needs no
/// turn reaches the loopback with no copy in user space: the producer keeps the driver's buffer
/// dequeued while it is shown and writes straight from it, and the snapshot ring keeps recent
/// buffers rather than copies (`HeldFrames`). A frame that must be turned or mirrored is copied
/// once, turned on the way, into an output frame of the producer's own.
///
/// Starting and stopping a camera's stream block for tens of milliseconds or more, so they run
/// on a second thread (`CaptureStreamSetup`): the producer thread hands it the streams to stop
/// and gets started streams back, and keeps writing its ticks meanwhile.
///
/// Where it lives: the thread's loop and tick in `ProducerThread`, its decisions about streams
/// and loopback pages in `ForwardingPolicy` (pure), stream starts and stops in `CameraStreams`.
public final class VirtualCameraProducer: Sendable {
    public struct Configuration: Sendable {
        /// The loopback device node; nil runs without output (frames still feed snapshots).
        public var outputNode: String?
        public var format: PixelFormat
        public var width: Int
        public var height: Int
        public var fps: Double
        /// Mirror captured frames (off: captures are not mirrored).
        public var mirror: Bool
        /// Zero-copy where the drivers allow it, or always one copy (`ForwardingPlan`).
        public var forwarding: DaemonConfig.VirtualCameraForwarding
        /// Cameras deliver MJPG, decoded into `format` (YUYV) with one copy per frame
        /// (`MJPEGDecoder`; a compressed frame cannot be captured into a loopback page).
        public var decodesMJPG: Bool

        public init(outputNode: String?, format: PixelFormat, width: Int, height: Int, fps: Double, mirror: Bool = false,
                    forwarding: DaemonConfig.VirtualCameraForwarding = .auto, decodesMJPG: Bool = false) {
            self.outputNode = outputNode
            self.format = format
            self.width = width
            self.height = height
            self.fps = fps
            self.mirror = mirror
            self.forwarding = decodesMJPG ? .copy : forwarding
            self.decodesMJPG = decodesMJPG
        }
    }

    /// Where a camera's frames come from.
    public enum Source: Sendable, Equatable {
        case device(node: String)
        case synthetic(index: Int, sensorRotation: Int)
        /// Frames of a stream another virtual camera's producer hosts (SharedCameraFeed.swift).
        case shared(SharedCameraFeed)
    }

    public enum Command: Sendable {
        case open(camera: String, source: Source)
        case close(camera: String)
        /// Feed this camera's frames, turned clockwise by `rotation`.
        case feed(camera: String, rotation: Int)
        case feedUnavailable
        /// Hand each new frame of `feed.camera`, which this producer streams, to another
        /// virtual camera (one copy into the feed); `unshare` stops it.
        case share(SharedCameraFeed)
        case unshare(SharedCameraFeed)
        /// Nobody reads: write the "camera idle" frame once and stop writing (v4l2loopback keeps
        /// offering it to readers that open) until another command comes.
        case idle
        case stop
    }

    public enum Event: Sendable, Equatable {
        case firstFrame(camera: String)
        case failed(camera: String, reason: Readiness.Reason, message: String)
        /// The loopback could not be opened or written; nothing reaches readers until a restart.
        case outputFailed(message: String)
        /// The loopback is open for output: the daemon's own descriptors on it are in place.
        case outputReady
        /// Something works less well than it should, but frames still flow (for the journal).
        case degraded(message: String)
        /// How frames reach the loopback: for the output as a whole (`camera` nil, once it is
        /// open), then for each camera stream that starts.
        case forwarding(camera: String?, path: ForwardingPath)
        /// A stream's first frame that went to the loopback in the very buffer the camera
        /// captured it into: what proves the zero-copy path runs (once per stream).
        case firstZeroCopyFrame(camera: String)
        case stopped
    }

    public let configuration: Configuration
    public let events: Mailbox<Event>
    // Internal for the thread (ProducerThread.swift).
    let commands: Mailbox<Command>
    let setup: CaptureStreamSetup
    let frames: HeldFrames
    let statistics = Mutex(Statistics())
    /// A sink of a test's instead of the loopback (`outputNode` is then not opened).
    let sink: SinkTransfer?

    public struct Statistics: Sendable {
        public var framesWritten = 0
        public var framesFromCameras = 0
        public var repeatedFrames = 0
        /// Frames a camera captured straight into a loopback buffer, queued there as they were.
        public var zeroCopyFrames = 0
        /// Longest interval between two output writes, nanoseconds.
        public var longestInterval: UInt64 = 0
        /// Cameras this producer opened itself (devices and synthetic ones; not shared ones).
        public var camerasOpened = 0
        /// Frames taken from another virtual camera's stream (a shared camera's).
        public var sharedFramesTaken = 0
    }

    public convenience init(configuration: Configuration, ringSpan: UInt64 = 500_000_000) throws(SystemCallError) {
        try self.init(configuration: configuration, ringSpan: ringSpan, sink: nil, cameras: V4L2CameraOpener())
    }

    /// With a sink and cameras of a test's (`FrameSink`, `CameraSourceOpener`).
    init(configuration: Configuration, ringSpan: UInt64 = 500_000_000, sink: (any FrameSink)?, cameras: any CameraSourceOpener) throws(SystemCallError) {
        self.configuration = configuration
        self.sink = sink.map(SinkTransfer.init)
        events = try Mailbox()
        commands = try Mailbox()
        let frames = HeldFrames(span: ringSpan, fps: configuration.fps, format: configuration.format, width: configuration.width, height: configuration.height)
        self.frames = frames
        // Enough buffers for the ring to hold one per entry, with the newest frame held for the
        // output on top and two left queued for the driver to fill meanwhile.
        setup = try CaptureStreamSetup(
            format: configuration.format, width: configuration.width, height: configuration.height, fps: configuration.fps,
            capturesMJPG: configuration.decodesMJPG, bufferCount: UInt32(frames.capacity + Self.buffersBeyondRing), frames: frames, opener: cameras)
    }

    /// Driver buffers a stream needs besides the ring's: the shown one, two for the driver.
    static let buffersBeyondRing = 3
    /// Driver buffers of a stream that waits to be reopened into the loopback's pages (the
    /// ring copies its frames meanwhile): the shown one, two for the driver, one spare.
    static let transientBufferCount = UInt32(buffersBeyondRing + 1)

    public func send(_ command: Command) { commands.post(command) }

    public var stats: Statistics { statistics.withLock { $0 } }

    /// Whether the snapshot ring keeps past frames (the default) or only the frame on screen:
    /// the daemon keeps them while someone who may take snapshots is connected
    /// (docs/virtual-camera.md, "Snapshots").
    public func keepSnapshotHistory(_ keep: Bool) { frames.keepHistory(keep) }

    /// The frame written nearest `timestamp` (CLOCK_MONOTONIC ns), within the ring's span.
    public func frame(nearest timestamp: UInt64) -> VideoFrame? {
        frames.nearest(to: timestamp)
    }

    /// Starts the producer thread. Opening the output happens there; a failure arrives as
    /// `.outputFailed`.
    public func start() {
        let thread = ProducerThread(producer: self)
        OSThread.detach(name: "foldcam-producer") { thread.run() }
    }
}
