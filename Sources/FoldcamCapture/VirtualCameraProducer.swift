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

        public init(outputNode: String?, format: PixelFormat, width: Int, height: Int, fps: Double, mirror: Bool = false, forwarding: DaemonConfig.VirtualCameraForwarding = .auto) {
            self.outputNode = outputNode
            self.format = format
            self.width = width
            self.height = height
            self.fps = fps
            self.mirror = mirror
            self.forwarding = forwarding
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
    private let commands: Mailbox<Command>
    private let setup: CaptureStreamSetup
    private let frames: HeldFrames
    private let statistics = Mutex(Statistics())

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

    public init(configuration: Configuration, ringSpan: UInt64 = 500_000_000) throws(SystemCallError) {
        self.configuration = configuration
        events = try Mailbox()
        commands = try Mailbox()
        let frames = HeldFrames(span: ringSpan, fps: configuration.fps, format: configuration.format, width: configuration.width, height: configuration.height)
        self.frames = frames
        // Enough buffers for the ring to hold one per entry, with the newest frame held for the
        // output on top and two left queued for the driver to fill meanwhile.
        setup = try CaptureStreamSetup(
            format: configuration.format, width: configuration.width, height: configuration.height, fps: configuration.fps,
            bufferCount: UInt32(frames.capacity + Self.buffersBeyondRing), frames: frames)
    }

    /// Driver buffers a stream needs besides the ring's: the shown one, two for the driver.
    static let buffersBeyondRing = 3

    public func send(_ command: Command) { commands.post(command) }

    public var stats: Statistics { statistics.withLock { $0 } }

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

    // MARK: The thread

    private final class ProducerThread: @unchecked Sendable {
        // Confined to the producer thread after start.
        let producer: VirtualCameraProducer
        var output: LoopbackOutput?
        /// The loopback's mapped output buffers when the zero-copy path runs (then nothing is
        /// write()n to `output`); nil on the copy path.
        var mapped: MappedLoopback?
        /// The stream whose first zero-copy frame was reported last.
        var announcedZeroCopy: UInt64?
        /// Whether the last tick's frame reached the loopback (a mapped one may have had no free
        /// page for a copy).
        var published = true
        /// Loopback pages shown before the one on screen, given back to their camera at its next
        /// frame (`use`).
        var lingering: [DriverBuffer] = []
        /// Pages a degraded mapping still lends to cameras: kept mapped until shutdown.
        var abandoned: MappedLoopback?
        /// The node each stream was opened from (to reopen a fed camera into loopback pages).
        var nodes: [String: String] = [:]
        /// Nodes whose camera refused to capture into loopback pages: not tried again.
        var refusedLending: Set<String> = []
        var streams: [String: CaptureStream] = [:]
        /// Device opens posted to the setup thread and not back yet.
        var opening: [String: PendingOpen] = [:]
        var nextTicket: UInt64 = 0
        let setup: CaptureStreamSetup
        /// nil when the system refused the thread: setup requests then run here.
        var setupThread: OSThread?
        var synthetic: [String: VideoFrame] = [:]
        /// Cameras shared with other virtual cameras, hosted here or fed from elsewhere.
        var shared = SharedFeeds()
        var delivered: Set<String> = []
        var feeding: String?
        var rotation = 0
        var hardwareFlip = false
        var frame: OutputFrame
        /// Drawn once: switching to it is then a copy, not a drawing.
        let unavailable: VideoFrame
        let idleFrame: VideoFrame
        /// False while idle, and until the first command: no output ticks, the thread sleeps
        /// until a command comes (the daemon first learns whether anyone reads the loopback).
        var ticking = false
        /// The idle frame is shown: after writing it once, ticks stop.
        var idling = false
        var fresh = false
        /// The fresh frame was turned in its loopback page (`OutputFrame.turnAndHold`): queued
        /// without a copy of the daemon's own page, but copied by the turn, so not zero-copy.
        var freshTurned = false
        var lastWrite: UInt64 = 0
        /// Reused by every poll() so the loop does not allocate.
        var pollList = PollSet()
        var polledCameras: [String] = []

        struct PendingOpen {
            let ticket: UInt64
            let node: String
            /// False once the camera was closed while its open was on its way; the stream is
            /// then stopped as soon as it arrives.
            var wanted = true
        }

        init(producer: VirtualCameraProducer) {
            self.producer = producer
            let c = producer.configuration
            unavailable = SyntheticFrames.unavailableFrame(format: c.format, width: c.width, height: c.height, timestamp: 0)
            let idleFrame = SyntheticFrames.idleFrame(format: c.format, width: c.width, height: c.height, timestamp: 0)
            self.idleFrame = idleFrame
            frame = OutputFrame(idleFrame, frames: producer.frames)
            setup = producer.setup
        }

        func run() {
            let c = producer.configuration
            do {
                setupThread = try setup.start()
            } catch {
                // Cameras still work; their starts and stops then delay output ticks.
                producer.events.post(.degraded(message: "no capture setup thread (\(error)); cameras start on the producer thread"))
            }
            if let node = c.outputNode {
                do {
                    let output = try LoopbackOutput(node: node, format: c.format, width: c.width, height: c.height, fps: c.fps)
                    self.output = output
                    mapOutput(output)
                    producer.events.post(.outputReady)
                } catch {
                    producer.events.post(.outputFailed(message: "\(error)"))
                }
            }
            let interval = UInt64(1e9 / c.fps)
            var nextTick = MonotonicClock.nanoseconds
            // The mailboxes are read only when poll() says something was posted: in steady
            // streaming the loop wakes once per frame, for the tick, and makes no other calls.
            var posted = (commands: true, results: true)
            while true {
                if posted.commands {
                    for command in producer.commands.drain() {
                        if !handle(command) {
                            shutdown()
                            return
                        }
                    }
                }
                if posted.results {
                    for result in setup.results.drain() { receive(result) }
                }
                let now = MonotonicClock.nanoseconds
                if !ticking {
                    nextTick = now
                } else if now >= nextTick {
                    // The fed camera is read at the tick, not when its frame arrives: its newest
                    // frame is written then either way, and the thread wakes once per frame.
                    if let feeding, streams[feeding] != nil { drain(feeding) }
                    tick(now: now)
                    nextTick += interval
                    if nextTick < now { nextTick = now + interval }  // fell behind: do not burst
                    // Idle: the frame just written stays in the loopback; no more ticks. (On
                    // the zero-copy path it may have found no free page yet, while the camera
                    // just closed gives its pages back: then it is tried at the next tick.)
                    if idling && published { ticking = false }
                }
                posted = waitForInput(until: ticking ? nextTick : nil)
            }
        }

        /// Sleeps in poll() until a command or a setup result is posted, a camera that is not
        /// fed (a pre-warmed one, one starting) has a frame, any camera fails, or the next tick
        /// comes. Says which mailboxes have something.
        private func waitForInput(until deadline: UInt64?) -> (commands: Bool, results: Bool) {
            let now = MonotonicClock.nanoseconds
            // nil: idle, nothing to write; sleep until a command, a result or a camera event.
            let timeout = deadline.map { $0 > now ? Int32(min(1000, ($0 - now + 999_999) / 1_000_000)) : 0 } ?? -1
            pollList.removeAll()
            pollList.append(producer.commands.descriptor.rawValue)
            pollList.append(setup.results.descriptor.rawValue)
            let first = pollList.count
            polledCameras.removeAll(keepingCapacity: true)
            for (camera, stream) in streams {
                polledCameras.append(camera)
                // The fed camera only for errors and hang-ups; its frames are read at the tick.
                pollList.append(stream.descriptor, readable: camera != feeding)
            }
            // poll fails only for a bad set (a bug): then this wait is just a short one.
            guard let ready = try? pollList.wait(timeoutMilliseconds: timeout), ready > 0 else { return (false, false) }
            let posted = (commands: pollList.events(at: 0).any, results: pollList.events(at: 1).any)
            for (index, camera) in polledCameras.enumerated() {
                let events = pollList.events(at: first + index)
                guard events.any else { continue }
                if events.failed && !events.readable {
                    fail(camera, reason: .unplugged, message: "\(streams[camera]?.camera ?? camera): device went away")
                    continue
                }
                drain(camera)
            }
            return posted
        }

        private func drain(_ camera: String) {
            guard let stream = streams[camera] else { return }
            if let error = readFrames(from: stream, camera: camera) {
                fail(camera, reason: Self.reason(error), message: "\(error)")
            }
        }

        /// Takes every frame the driver has ready and uses the newest; the error that stopped
        /// it, if any. Older ones go straight back: only the newest would be written, and
        /// turning every frame of a backlog (a stream's first moments, a slow turn) could keep
        /// this thread from its output ticks for as long as frames keep coming.
        private func readFrames(from stream: CaptureStream, camera: String) -> SystemCallError? {
            do {
                var newest: (buffer: DriverBuffer, timestamp: UInt64)?
                while let filled = try stream.dequeue() {
                    if let older = newest { try stream.requeue(older.buffer.index) }
                    newest = filled
                }
                guard let newest else { return nil }
                if !delivered.contains(camera) {
                    delivered.insert(camera)
                    producer.events.post(.firstFrame(camera: camera))
                }
                try use(newest.buffer, timestamp: newest.timestamp, from: stream, camera: camera)
                return nil
            } catch {
                return error
            }
        }

        /// Shows a dequeued frame of `camera`, or gives it straight back. The fed camera's frame
        /// is held and shown as it is when it needs no turn (and the stream has buffers to
        /// spare), else copied, turned on the way; other cameras' (pre-warmed) and short frames
        /// go straight back.
        private func use(_ buffer: DriverBuffer, timestamp: UInt64, from stream: CaptureStream, camera: String) throws(SystemCallError) {
            let c = producer.configuration
            let transform = FrameTransform.Operation(rotation: hardwareFlip ? 0 : effectiveRotation(rotation), mirror: c.mirror)
            shared.put(camera, bytes: buffer.bytes, count: c.format.byteCount(width: c.width, height: c.height), timestamp: timestamp, flipped: hardwareFlip && camera == feeding)
            guard camera == feeding, buffer.bytes.count >= c.format.byteCount(width: c.width, height: c.height) else {
                return try stream.requeue(buffer.index)
            }
            if stream.lender != nil {
                // A loopback page: shown as it is, or turned in place first (a software turn).
                // The page shown until now goes back to the camera one frame later: a reader of
                // v4l2loopback 0.12.7 a frame behind reads it meanwhile (see `lingering`).
                let released = transform == .identity
                    ? frame.hold(buffer, camera: camera, inRing: false, lent: true)
                    : frame.turnAndHold(buffer, camera: camera, transform: transform)
                requeue(lingering)
                lingering = released
                freshTurned = transform != .identity
            } else if transform == .identity && stream.bufferCount >= VirtualCameraProducer.buffersBeyondRing {
                let inRing = stream.bufferCount >= producer.frames.capacity + VirtualCameraProducer.buffersBeyondRing
                requeue(frame.hold(buffer, camera: camera, inRing: inRing))
            } else {
                requeue(frame.copy(buffer.bytes, timestamp: timestamp, camera: camera, transform: transform))
                try stream.requeue(buffer.index)
            }
            if stream.lender == nil { freshTurned = false }
            fresh = true
        }

        private static func reason(_ error: SystemCallError) -> Readiness.Reason {
            error.isBusy ? .busy : (error.deviceVanished ? .unplugged : .error)
        }

        /// Gives buffers nothing holds any more back to their drivers. Those of a stream already
        /// handed over to stop are left: stopping it reclaims them. A failed QBUF is left to the
        /// next DQBUF or poll, which report a failing device (failing the camera here, inside
        /// its frame loop, would stop the stream under it).
        private func requeue(_ released: [DriverBuffer]) {
            for buffer in released {
                guard let stream = streams.values.first(where: { $0.serial == buffer.stream }) else { continue }
                try? stream.requeue(buffer.index)
            }
        }

        /// Quarter turns fit only a square output; otherwise the turn is left to the reader
        /// (the daemon publishes captureRotation) and only 180° is applied.
        private func effectiveRotation(_ rotation: Int) -> Int {
            let c = producer.configuration
            if rotation == 90 || rotation == 270 { return c.width == c.height ? rotation : 0 }
            return rotation
        }

        private func tick(now: UInt64) {
            tickShared(now: now)
            if let feeding, let raw = synthetic[feeding] {
                var copy = raw
                copy.timestamp = now
                let c = producer.configuration
                requeue(frame.set(copy, transform: .init(rotation: hardwareFlip ? 0 : effectiveRotation(rotation), mirror: c.mirror)))
                fresh = true
                if !delivered.contains(feeding) {
                    delivered.insert(feeding)
                    producer.events.post(.firstFrame(camera: feeding))
                }
            }
            // Synthetic cameras being warmed up deliver at once.
            for camera in synthetic.keys where !delivered.contains(camera) {
                delivered.insert(camera)
                producer.events.post(.firstFrame(camera: camera))
            }
            if let mapped, !mapped.stillDistinct() { abandonMapping() }
            reclaimPagesForFedStream()
            published = true
            if let output {
                do {
                    if let mapped {
                        published = try frame.publish(to: mapped)
                    } else {
                        try frame.write(to: output)
                    }
                } catch {
                    producer.events.post(.outputFailed(message: "\(error)"))
                    self.output = nil
                }
            }
            let zeroCopy = frame.showsLentBuffer && fresh && !freshTurned && mapped != nil
            if zeroCopy, let camera = feeding, let stream = streams[camera], announcedZeroCopy != stream.serial {
                announcedZeroCopy = stream.serial
                producer.events.post(.firstZeroCopyFrame(camera: camera))
            }
            requeue(frame.record(at: now))
            reopenFedStreamIntoPages()
            let wasFresh = fresh
            fresh = false
            let interval = lastWrite == 0 ? 0 : now - lastWrite
            lastWrite = now
            producer.statistics.withLock { stats in
                stats.framesWritten += 1
                if wasFresh { stats.framesFromCameras += 1 } else { stats.repeatedFrames += 1 }
                if zeroCopy { stats.zeroCopyFrames += 1 }
                stats.longestInterval = max(stats.longestInterval, interval)
            }
        }

        private func handle(_ command: Command) -> Bool {
            let c = producer.configuration
            // Closing a camera changes nothing on the output; everything else needs a write (idle
            // too: its frame, once).
            if case .close = command {} else { resumeTicks() }
            switch command {
            case let .open(camera, source):
                guard streams[camera] == nil && synthetic[camera] == nil && !shared.isJoined(camera) else {
                    // Kept open for another virtual camera and wanted again: it delivers already.
                    if delivered.contains(camera) { producer.events.post(.firstFrame(camera: camera)) }
                    return true
                }
                delivered.remove(camera)
                if case .shared = source {} else { producer.statistics.withLock { $0.camerasOpened += 1 } }
                switch source {
                case let .shared(feed):
                    shared.join(feed)
                case let .synthetic(index, sensorRotation):
                    synthetic[camera] = SyntheticFrames.cameraFrame(id: camera, index: index, sensorRotation: sensorRotation, format: c.format, width: c.width, height: c.height, timestamp: 0)
                case let .device(node):
                    open(camera, node: node)
                }
            case let .close(camera):
                shared.leave(camera)
                shared.end(camera, reason: .busy, message: "\(camera) was closed")
                retire(camera)
                if opening[camera] != nil { opening[camera]!.wanted = false }
                synthetic[camera] = nil
                delivered.remove(camera)
                if feeding == camera { feeding = nil }
            case let .feed(camera, rotation):
                // The daemon repeats the feed on every decision (the turn may have changed);
                // an unchanged one must not touch the sensor's controls again.
                if feeding == camera && self.rotation == rotation { return true }
                feeding = camera
                self.rotation = rotation
                orientFedStream()
            case let .share(feed):
                host(feed)
            case let .unshare(feed):
                shared.remove(feed)
            case .feedUnavailable:
                feeding = nil
                requeue(frame.set(unavailable, transform: .identity))
            case .idle:
                feeding = nil
                requeue(frame.set(idleFrame, transform: .identity))
                idling = true
            case .stop:
                return false
            }
            return true
        }

        /// Back from idle: one frame per period again, from now.
        private func resumeTicks() {
            idling = false
            if !ticking { lastWrite = 0 }  // the idle pause is no interval between writes
            ticking = true
        }

        /// Turns the fed camera's sensor by 180° when the feed needs it and the sensor can (the
        /// frames then need no turn here); otherwise sets it straight. A camera whose stream has
        /// not arrived yet is done when it arrives.
        private func orientFedStream() {
            hardwareFlip = false
            guard let feeding, let stream = streams[feeding] else { return }
            if effectiveRotation(rotation) == 180, stream.setFlipped(true) {
                hardwareFlip = true
            } else {
                _ = stream.setFlipped(false)
            }
        }

        // MARK: Zero-copy (ForwardingPlan, MappedLoopback)

        /// Maps the loopback's output buffers when the config and the drivers allow zero-copy,
        /// and says which path runs and why.
        private func mapOutput(_ output: LoopbackOutput) {
            let c = producer.configuration
            var path = ForwardingPlan.outputPath(setting: c.forwarding, mirror: c.mirror)
            if path == .zeroCopy {
                switch MappedLoopback.map(output) {
                case let .success(loopback): mapped = loopback
                case let .failure(reason): path = .copy(reason)
                }
            }
            producer.events.post(.forwarding(camera: nil, path: path))
        }

        /// Loopback pages for a camera about to open (nil on the copy path, or when the spare
        /// pages are lent to another camera: it then keeps its own buffers, and says so).
        private func lendPages(to camera: String, ticket: UInt64) -> LentPages? {
            guard let mapped else { return nil }
            if shared.isHosted(camera) {
                producer.events.post(.forwarding(camera: camera, path: .copy(.sharedCamera)))
                return nil
            }
            switch mapped.lend(to: ticket) {
            case let .success(pages):
                return pages
            case let .failure(reason):
                producer.events.post(.forwarding(camera: camera, path: .copy(reason)))
                return nil
            }
        }

        /// A stream handed over to stop: its pages wait for `.returned` before reuse.
        private func retireLent(_ stream: CaptureStream) {
            if let lender = stream.lender { mapped?.retire(lender: lender) }
        }

        /// The fed camera streams into its own buffers because the pages were lent to the camera
        /// it replaced (v4l2loopback has only 4 to share): once they are back, it is reopened
        /// to capture into them. Its last frame repeats meanwhile (a copy, as on any switch),
        /// for as long as the camera takes to start.
        /// Not before a frame of it is on screen: its stream's last frame is what repeats while it
        /// restarts, and before that the screen still shows the camera it replaced (a reopen then
        /// would show the old camera for two starts of the new one). Tried again at each tick.
        private func reopenFedStreamIntoPages() {
            guard let mapped, mapped.canLend, let camera = feeding, let stream = streams[camera], stream.lender == nil,
                  frame.cameraShown == camera, opening[camera] == nil, let node = nodes[camera],
                  !refusedLending.contains(node), !shared.isHosted(camera) else { return }
            retire(camera)
            open(camera, node: node)
        }

        /// The pages belong to the fed camera. A camera that is not fed (pre-warming, or still
        /// open after a switch) but holds them while the fed one streams into its own buffers
        /// leaves the fed one no page to alternate its copies with (there is one spare), so the
        /// output would repeat one frame: that camera is reopened on its own buffers, and once
        /// its pages are back the fed camera is reopened into them (`reopenFedStreamIntoPages`).
        private func reclaimPagesForFedStream() {
            guard mapped != nil, let camera = feeding, let fed = streams[camera], fed.lender == nil else { return }
            for (other, stream) in streams where other != camera && stream.lender != nil {
                guard let node = nodes[other] else { continue }
                retire(other)
                open(other, node: node, lending: false)
            }
        }

        /// A reader made v4l2loopback use fewer buffers than the pages (see
        /// `MappedLoopback.stillDistinct`): from now on frames are write()n, as on the copy
        /// path. Streams capturing into pages keep them until they stop; the pages stay mapped.
        private func abandonMapping() {
            abandoned = mapped
            mapped = nil
            producer.events.post(.forwarding(camera: nil, path: .copy(.readerShrankLoopback)))
        }

        // MARK: Sharing a camera with other virtual cameras (SharedCameraFeed.swift)

        /// Starts handing `feed.camera`'s frames to a guest. A camera this producer no longer
        /// streams (it failed meanwhile) ends the feed at once: the guest tries again.
        private func host(_ feed: SharedCameraFeed) {
            let camera = feed.camera
            guard streams[camera] != nil || opening[camera] != nil || synthetic[camera] != nil else {
                return feed.end(.busy, message: "\(camera) is not streaming any more")
            }
            let firstGuest = !shared.isHosted(camera)
            shared.add(feed)
            if let frame = synthetic[camera] { putSynthetic(camera, frame, at: MonotonicClock.nanoseconds) }
            // A shared camera takes the one-copy path for every output: a stream capturing into
            // the loopback's pages is reopened into its own buffers (before any guest frame;
            // this output repeats its last frame meanwhile, as on a switch).
            if firstGuest, let stream = streams[camera], stream.lender != nil, let node = nodes[camera] {
                retire(camera)
                open(camera, node: node)
            }
        }

        private func putSynthetic(_ camera: String, _ frame: VideoFrame, at now: UInt64) {
            frame.bytes.withUnsafeBytes { shared.put(camera, bytes: $0, count: $0.count, timestamp: now) }
        }

        /// At each output tick: the shared feeds' first frames and failures become events, and a
        /// fed camera that comes from another virtual camera's stream is copied out of its feed
        /// (turned on the way). Synthetic cameras hosted here put a frame per tick.
        private func tickShared(now: UInt64) {
            for (camera, frame) in synthetic where shared.isHosted(camera) { putSynthetic(camera, frame, at: now) }
            for event in shared.events() {
                if case let .failed(camera, _, _) = event {
                    delivered.remove(camera)
                }
                producer.events.post(event)
            }
            guard let camera = feeding, shared.isJoined(camera) else { return }
            let turn = effectiveRotation(rotation), mirror = producer.configuration.mirror
            var released: [DriverBuffer] = []
            let taken = shared.take(camera) { bytes, timestamp, flipped in
                // A frame the host's sensor turned 180° needs 180° less here.
                let transform = FrameTransform.Operation(rotation: flipped ? (turn + 180) % 360 : turn, mirror: mirror)
                released = frame.copy(bytes, timestamp: timestamp, camera: camera, transform: transform)
            }
            if taken {
                requeue(released)
                fresh = true
                producer.statistics.withLock { $0.sharedFramesTaken += 1 }
            }
        }

        // MARK: Streams starting and stopping on the setup thread

        /// `lending`: false opens the camera on its own buffers even when pages are free.
        private func open(_ camera: String, node: String, lending: Bool = true) {
            if let pending = opening[camera] {
                // Already on its way (the camera may have been closed meanwhile): the same
                // device is taken as it arrives, as a second open would find it busy. A camera
                // that came back under another node is opened afresh; the stale stream is
                // stopped when it arrives.
                if pending.node == node {
                    opening[camera]!.wanted = true
                    return
                }
            }
            nextTicket += 1
            opening[camera] = PendingOpen(ticket: nextTicket, node: node)
            submit(.open(camera: camera, node: node, ticket: nextTicket, lending: lending ? lendPages(to: camera, ticket: nextTicket) : nil))
        }

        private func receive(_ result: CaptureStreamSetup.Result) {
            switch result {
            case let .opened(camera, ticket, transfer, path):
                // Pages lent for an open the camera refused are free again.
                if transfer.stream.lender == nil { mapped?.cancel(lender: ticket) }
                guard let pending = opening[camera], pending.ticket == ticket, pending.wanted else {
                    // Closed, or superseded, while it was starting.
                    if opening[camera]?.ticket == ticket { opening[camera] = nil }
                    retireLent(transfer.stream)
                    submit(.stop(transfer))
                    return
                }
                opening[camera] = nil
                nodes[camera] = pending.node
                if case .copy(.cameraRefused) = path { refusedLending.insert(pending.node) }
                if let path { producer.events.post(.forwarding(camera: camera, path: path)) }
                streams[camera] = transfer.stream
                if camera == feeding { orientFedStream() }
            case let .returned(lender):
                mapped?.stopped(lender: lender)
                abandoned?.stopped(lender: lender)
                reopenFedStreamIntoPages()
            case let .failed(camera, ticket, error):
                mapped?.cancel(lender: ticket)
                guard let pending = opening[camera], pending.ticket == ticket else { return }
                opening[camera] = nil
                shared.end(camera, reason: Self.reason(error), message: "\(error)")
                // A camera closed meanwhile is no longer anybody's concern.
                guard pending.wanted else { return }
                producer.events.post(.failed(camera: camera, reason: Self.reason(error), message: "\(error)"))
            }
        }

        /// Hands the camera's stream, if it has one, to the setup thread to stop; this thread
        /// keeps no reference to it. A frame of it still shown is copied first (the output
        /// repeats it until another camera delivers); the setup thread copies the ring's.
        private func retire(_ camera: String) {
            guard let stream = streams.removeValue(forKey: camera) else { return }
            frame.keep(stream: stream.serial)
            retireLent(stream)
            submit(.stop(CaptureStreamTransfer(stream: stream)))
        }

        private func submit(_ request: CaptureStreamSetup.Request) {
            if setupThread != nil {
                setup.requests.post(request)
            } else {
                _ = setup.perform(request)
            }
        }

        private func fail(_ camera: String, reason: Readiness.Reason, message: String) {
            shared.end(camera, reason: reason, message: message)
            retire(camera)
            delivered.remove(camera)
            producer.events.post(.failed(camera: camera, reason: reason, message: message))
        }

        /// Stops every stream, those still starting included, before reporting `.stopped`.
        private func shutdown() {
            output = nil
            shared.endAll(message: "the virtual camera that streamed it stopped")
            for camera in Array(streams.keys) { retire(camera) }
            opening.removeAll()
            if let setupThread {
                setup.finish()
                setupThread.join()
            }
            // Streams that started before the setup thread saw the end are this thread's now.
            for case let .opened(_, _, transfer, _) in setup.results.drain() { transfer.stream.stop() }
            // Every stream that captured into the loopback's pages has stopped: unmap them.
            mapped = nil
            abandoned = nil
            producer.events.post(.stopped)
        }
    }
}
