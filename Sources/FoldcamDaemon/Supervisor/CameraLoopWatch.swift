import FoldcamCapture
import FoldcamIO
import FoldcamPlatform

/// What the event loop watches for one running virtual camera: its producer's events, its
/// demand timer (grace period, opener settle), its busy-retry timer and, once the loopback is
/// open, its reader count. It registers every handler itself and unregisters them itself:
/// `detachDemand` when the camera side is torn down, `detachProducer` once the producer has
/// stopped (its `.stopped` comes through the events).
final class CameraLoopWatch {
    /// How long after a busy camera failed to open it is tried again (the device layer probes
    /// busy cameras as often).
    static let busyRetryInterval = Duration.seconds(2)

    private let loop: EventLoop
    private let producer: VirtualCameraProducer
    private unowned let controller: VirtualCameraController
    private let node: String
    private let label: String
    private let graceMilliseconds: Int
    private let log: Log
    private let demandTimer: Timer
    private let busyRetry: Timer
    /// The demand's descriptors the loop watches (the timers, then the readers).
    private var watched: [FileDescriptor] = []
    private var producerWatched = false

    init(producer: VirtualCameraProducer, controller: VirtualCameraController, node: String, label: String, loop: EventLoop, graceMilliseconds: Int, log: Log) throws {
        self.loop = loop
        self.producer = producer
        self.controller = controller
        self.node = node
        self.label = label
        self.graceMilliseconds = graceMilliseconds
        self.log = log
        demandTimer = try Timer()
        busyRetry = try Timer()
        controller.configureDemand(grace: UInt64(graceMilliseconds) * 1_000_000, settle: 0)
        let demandTimer = self.demandTimer, busyRetry = self.busyRetry
        try loop.register(demandTimer.descriptor) { [unowned controller] _ in
            _ = demandTimer.acknowledge()
            controller.advanceDemand()
        }
        watched.append(demandTimer.descriptor)
        // A busy camera is tried again after a while (two virtual cameras wanting one camera:
        // the second gets it once the first lets go; docs/virtual-camera.md).
        try loop.register(busyRetry.descriptor) { [unowned controller] _ in
            _ = busyRetry.acknowledge()
            controller.retryBusy()
        }
        watched.append(busyRetry.descriptor)
        let events = producer.events
        try loop.register(events.descriptor) { [unowned controller] _ in
            for event in events.drain() { controller.handle(event) }
        }
        producerWatched = true
    }

    /// Arms the demand timer for `deadline` (CLOCK_MONOTONIC ns), or disarms it.
    func schedule(demandDeadline deadline: UInt64?) {
        guard let deadline else { return demandTimer.cancel() }
        let now = MonotonicClock.nanoseconds
        try? demandTimer.schedule(after: .nanoseconds(Int64(deadline > now ? deadline - now : 0)))
    }

    func retryBusyLater() { try? busyRetry.schedule(after: Self.busyRetryInterval) }

    /// The producer has the loopback open: counts its readers from now (its own opens lie
    /// behind the count).
    func watchReaders() {
        let readers: LoopbackReaders
        do {
            readers = try LoopbackReaders(node: node, ownDescriptors: 1)
        } catch {
            // Without a count the camera would never start: run it as if watched.
            log.error("\(label): cannot tell when \(node) is read (\(error)); the camera runs all the time")
            controller.readersChanged(1)
            return
        }
        let settle = if case .clientUsageEvent = readers.method { UInt64(0) } else { LoopbackReaders.openerSettle }
        controller.configureDemand(grace: UInt64(graceMilliseconds) * 1_000_000, settle: settle)
        log.info("\(label): readers of \(node) detected by \(readers.method); the camera runs only while one reads (stops \(graceMilliseconds) ms after the last leaves)")
        do {
            try loop.register(readers.descriptor, interest: readers.interest) { [unowned controller] _ in
                controller.readersChanged(readers.update())
            }
            watched.append(readers.descriptor)
        } catch {
            log.error("\(label): cannot watch \(node)'s readers (\(error)); the camera runs all the time")
            controller.readersChanged(1)
            return
        }
        controller.readersChanged(readers.count)
    }

    /// The camera side is torn down: the demand's timers and the reader count are let go.
    func detachDemand() {
        for descriptor in watched { loop.unregister(descriptor) }
        watched.removeAll()
        demandTimer.cancel()
        busyRetry.cancel()
    }

    /// The producer has stopped: its events are let go too.
    func detachProducer() {
        detachDemand()
        guard producerWatched else { return }
        loop.unregister(producer.events.descriptor)
        producerWatched = false
    }
}
