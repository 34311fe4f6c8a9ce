import FoldcamCore
import FoldcamPlatform
import FoldcamVideo

/// The producer's thread: the loop and the output tick. What streams where is
/// `ForwardingPolicy`'s; starting and stopping streams is `CameraStreams`'; commands, frames and
/// shared feeds are in the `ProducerThread+*.swift` extensions.
///
/// `@unchecked Sendable` only to be handed to the thread it runs on: everything here is
/// confined to that thread after `start()`.
final class ProducerThread: @unchecked Sendable {
    let producer: VirtualCameraProducer
    let configuration: VirtualCameraProducer.Configuration
    /// Where frames are written (the loopback by write()); nil without output.
    var writer: (any FrameSink)?
    /// The sink's own pages when the zero-copy path runs (then frames go there, not to
    /// `writer`); nil on the copy path.
    var paged: (any PagedFrameSink)?
    /// Pages a degraded mapping still lends to cameras: kept mapped until shutdown.
    var abandoned: (any PagedFrameSink)?
    var policy: ForwardingPolicy
    let streams: CameraStreams
    /// The stream whose first zero-copy frame was reported last.
    var announcedZeroCopy: UInt64?
    /// Whether the last tick's frame reached the loopback (a mapped one may have had no free
    /// page for a copy).
    var published = true
    var synthetic: [String: VideoFrame] = [:]
    /// Cameras shared with other virtual cameras, hosted here or fed from elsewhere.
    var shared = SharedFeeds()
    var delivered: Set<String> = []
    var feeding: String? { policy.feeding }
    var rotation = 0
    var hardwareFlip = false
    var frame: OutputFrame
    /// Decodes the fed camera's MJPG frames (`configuration.decodesMJPG`) into `decodedFrame`;
    /// nil when libjpeg-turbo did not load (`decoderProblem` says why).
    var decoder: MJPEGDecoder?
    var decoderProblem: String?
    var decodedFrame: [UInt8] = []
    /// A damaged MJPG frame is dropped; the first is told (for the journal), not every one.
    var toldDamagedFrame = false
    /// Likewise the first frame shown despite damage the decoder recovered from.
    var toldRecoveredFrame = false
    /// Drawn at its first use (most runs never show it: a frame held for nothing is a frame's
    /// worth of idle VmRSS), then kept: switching to it again is a copy, not a drawing.
    lazy var unavailable: VideoFrame = SyntheticFrames.unavailableFrame(
        format: configuration.format, width: configuration.width, height: configuration.height, timestamp: 0)
    let idleFrame: VideoFrame
    /// False while idle, and until the first command: no output ticks, the thread sleeps
    /// until a command comes (the daemon first learns whether anyone reads the loopback).
    var ticking = false
    /// The idle frame is shown: after writing it once, ticks stop.
    var idling = false
    /// The paged sink's memory is let go while idle (`parkPagesWhenIdle`).
    var parked = false
    var fresh = false
    /// The fresh frame was turned in its loopback page (`OutputFrame.turnAndHold`): queued
    /// without a copy of the daemon's own page, but copied by the turn, so not zero-copy.
    var freshTurned = false
    var lastWrite: UInt64 = 0
    /// Nanoseconds between output ticks.
    let interval: UInt64
    /// Ticks since the paged sink was last asked whether it still uses every page.
    var ticksSinceDistinctCheck = 0
    /// Reused by every poll() so the loop does not allocate.
    var pollList = PollSet()
    var polledCameras: [String] = []

    init(producer: VirtualCameraProducer) {
        self.producer = producer
        let c = producer.configuration
        configuration = c
        interval = UInt64(1e9 / c.fps)
        let idleFrame = SyntheticFrames.idleFrame(format: c.format, width: c.width, height: c.height, timestamp: 0)
        self.idleFrame = idleFrame
        frame = OutputFrame(idleFrame, frames: producer.frames)
        streams = CameraStreams(setup: producer.setup)
        policy = ForwardingPolicy()
        if c.decodesMJPG {
            do {
                decoder = try MJPEGDecoder()
            } catch {
                decoderProblem = "\(error)"
            }
            decodedFrame = [UInt8](repeating: 0, count: c.format.byteCount(width: c.width, height: c.height))
        }
    }

    func run() {
        let c = configuration
        do {
            try streams.startSetupThread()
        } catch {
            // Cameras still work; their starts and stops then delay output ticks.
            producer.events.post(.degraded(message: "no capture setup thread (\(error)); cameras start on the producer thread"))
        }
        if let sink = producer.sink {
            writer = sink.sink
            paged = sink.sink as? any PagedFrameSink
            if let paged { decide(.mapped(pages: paged.pageCount)) }
            producer.events.post(.forwarding(camera: nil, path: paged == nil ? .copy(.configured) : .zeroCopy))
            producer.events.post(.outputReady)
        } else if let node = c.outputNode {
            do {
                let opened = try LoopbackSink.open(node: node, configuration: c)
                writer = opened.writer
                paged = opened.paged
                if let paged { decide(.mapped(pages: paged.pageCount)) }
                producer.events.post(.forwarding(camera: nil, path: opened.path))
                producer.events.post(.outputReady)
            } catch {
                producer.events.post(.outputFailed(message: "\(error)"))
            }
        }
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
                for result in streams.results.drain() { receive(result) }
            }
            let now = MonotonicClock.nanoseconds
            if !ticking {
                nextTick = now
            } else if now >= nextTick {
                // The fed camera is read at the tick, not when its frame arrives: its newest
                // frame is written then either way, and the thread wakes once per frame.
                if let feeding, streams[feeding] != nil { drain(feeding, atTick: now) }
                tick(now: now)
                nextTick += interval
                if nextTick < now { nextTick = now + interval }  // fell behind: do not burst
                // Idle: the frame just written stays in the loopback; no more ticks. (On
                // the zero-copy path it may have found no free page yet, while the camera
                // just closed gives its pages back: then it is tried at the next tick.)
                if idling && published { ticking = false }
            }
            parkPagesWhenIdle()
            posted = waitForInput(until: ticking ? nextTick : nil, now: now)
        }
    }

    /// Sleeps in poll() until a command or a setup result is posted, a camera that is not fed
    /// (a pre-warmed one, one starting) has a frame or fails, or the next tick comes. The fed
    /// camera is not polled: its frames are taken at the tick, and its failures show there, in
    /// DQBUF; polling it would take the driver's queue lock every pass (vb2_fop_poll), which
    /// the driver's own thread holds while it fills a buffer. Says which mailboxes have
    /// something. `now` is the pass's one clock reading, taken before the tick: the wait then
    /// ends the tick's own duration late, every time alike, so ticks keep their interval (a
    /// second reading costs a system call per frame where the clock has no vDSO, as in a VM).
    private func waitForInput(until deadline: UInt64?, now: UInt64) -> (commands: Bool, results: Bool) {
        // nil: idle, nothing to write; sleep until a command, a result or a camera event.
        let timeout = deadline.map { $0 > now ? Int32(min(1000, ($0 - now + 999_999) / 1_000_000)) : 0 } ?? -1
        pollList.removeAll()
        pollList.append(producer.commands.descriptor.rawValue)
        pollList.append(streams.results.descriptor.rawValue)
        let first = pollList.count
        polledCameras.removeAll(keepingCapacity: true)
        for (camera, stream) in streams.all where camera != feeding || !ticking {
            polledCameras.append(camera)
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

    func tick(now: UInt64) {
        // Pages whose linger ended go back even when the camera gave no frame this tick.
        release(.none, now: now)
        tickShared(now: now)
        tickSynthetic(now: now)
        decide(.tick(loopbackDistinct: pagesStillDistinct()))
        published = true
        if let sink = paged ?? writer {
            do {
                published = try sink.send(frame, policy: &policy)
            } catch {
                producer.events.post(.outputFailed(message: "\(error)"))
                // Nothing goes out any more; pages cameras capture into stay mapped.
                if let paged { abandoned = paged }
                writer = nil
                paged = nil
            }
        }
        // The pages let go before this write are a frame behind from now (`letGo`).
        policy.replaced(at: now)
        let zeroCopy = frame.showsLentBuffer && fresh && !freshTurned && paged != nil
        if zeroCopy, let camera = feeding, let stream = streams[camera], announcedZeroCopy != stream.serial {
            announcedZeroCopy = stream.serial
            producer.events.post(.firstZeroCopyFrame(camera: camera))
        }
        release(frame.record(at: now), now: now)
        decide(.written(shown: frame.cameraShown))
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

    /// Idle, with the idle frame out and no page lent to a camera: the paged sink's pages leave
    /// the daemon's memory (the loopback keeps its buffers and shows the frame queued last)
    /// until a command resumes ticks (`resumeTicks` maps them again). So do the snapshot ring's
    /// copies: while idle the daemon refuses snapshots of past moments (docs/protocol.md).
    private func parkPagesWhenIdle() {
        guard !ticking, idling, !parked, let paged, let book = policy.book, book.owners.allSatisfy({ $0 == .free }) else { return }
        paged.park()
        producer.frames.dropCopies()
        parked = true
    }

    /// Whether the paged sink still uses every page as its own, asked every
    /// `ForwardingPlan.distinctCheckTicks` ticks (a QUERYBUF each time).
    private func pagesStillDistinct() -> Bool {
        guard let paged else { return true }
        ticksSinceDistinctCheck += 1
        guard ticksSinceDistinctCheck >= ForwardingPlan.distinctCheckTicks else { return true }
        ticksSinceDistinctCheck = 0
        return paged.stillDistinct()
    }

    /// Gives back what a frame change at `now` let go: a camera's own buffers at once, loopback
    /// pages once no reader one frame behind can be reading them (`ForwardingPolicy.letGo`).
    func release(_ released: consuming ReleasedBuffers, now: UInt64) {
        streams.giveBack(ReleasedBuffers(ids: policy.letGo(released.take(), now: now, interval: interval)))
    }

    /// Hands `event` to the policy and carries out what it decides.
    func decide(_ event: ForwardingPolicy.Event, arrived: CaptureStreamTransfer? = nil) {
        apply(policy.handle(event) { self.shared.isHosted($0) }, arrived: arrived)
    }

    /// Carries out the policy's actions, in order. `arrived`: the stream an `.opened` result
    /// brought, which `.adopt` or `.discard` is about.
    private func apply(_ actions: [ForwardingPolicy.Action], arrived: CaptureStreamTransfer? = nil) {
        for action in actions {
            switch action {
            case let .start(camera, node, ticket, pages):
                let lending = pages.flatMap { pages in paged.map { $0.lending(pages, to: ticket) } }
                // On the zero-copy path a camera gets no pages only while another stream holds
                // them (a switch, a pre-warm); it is reopened into them once they are back
                // (`ForwardingPolicy`). Until then it needs only enough buffers to hold a frame:
                // the snapshot ring's worth would be allocated by the driver before the first
                // frame (19 buffers, 79 MB at 1080p: most of a cold switch's time, issue 29).
                let transient = paged != nil && lending == nil && !shared.isHosted(camera)
                streams.start(camera, node: node, ticket: ticket, lending: lending,
                              bufferCount: transient ? VirtualCameraProducer.transientBufferCount : nil)
            case let .retire(camera):
                streams.retire(camera) { frame.keep(stream: $0.serial) }
            case let .adopt(camera, _):
                guard let arrived else { continue }
                streams.adopt(camera, arrived)
                if camera == feeding { orientFedStream() }
            case .discard:
                if let arrived { streams.discard(arrived) }
            case .openFailed:
                continue  // `receive` reports it: it has the error
            case let .report(camera, path):
                producer.events.post(.forwarding(camera: camera, path: path))
            case .abandonMapping:
                // A reader made v4l2loopback use fewer buffers than the pages: from now on
                // frames are write()n. Streams capturing into pages keep them until they stop.
                abandoned = paged
                paged = nil
            }
        }
    }
}
