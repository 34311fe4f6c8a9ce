import FoldcamCapture
import FoldcamCore
import FoldcamDevices
import FoldcamIO
import FoldcamPlatform
import FoldcamVideo

/// Starts the virtual camera producer when there is a loopback device to feed: the one named
/// on the command line or in the config, or the one udev lists with the configured card label. Without one the
/// daemon still decides and serves (and simulate-mode snapshots are drawn on demand); on
/// hardware its readiness then says what to fix (`Daemon.virtualCameraProblem`).
enum VirtualCameraSetup {
    /// `label`: how the journal names the camera ("virtual camera", or with its id when the
    /// configuration lists several). `explicitNode` (--loopback) is the default camera's only.
    static func start(daemon: Daemon, camera slot: VirtualCameraSlot, label: String, loop: EventLoop, config: DaemonConfig, explicitNode: String?, log: Log) throws -> (VirtualCameraProducer, VirtualCameraController)? {
        let plan = slot.plan, spec = slot.spec
        func problem(_ reason: Readiness.Reason) {
            slot.problem = reason
            daemon.publish(candidates: [.readiness])
        }
        guard let mode = plan.format else {
            if plan.pool.isEmpty {
                log.notice("\(label): rig \(daemon.rig.id) has no camera in its pool; no producer")
                return nil
            }
            log.error("\(label): the pool's cameras (\(plan.pool.map { daemon.rig.cameras[$0].id }.joined(separator: ", "))) share no mode; the producer cannot start (give them a common format in the rig; foldcamd --check-config shows each camera's)")
            problem(.noCommonFormat)
            return nil
        }
        guard let format = PixelFormat(rawValue: mode.pixelFormat), format.accepts(width: mode.width, height: mode.height) else {
            log.error("\(label): format \(mode) is not one the producer handles (NV12, YUYV)")
            problem(.unsupportedFormat)
            return nil
        }
        let node = explicitNode ?? spec.loopbackDevice ?? LoopbackLocator.find(label: spec.loopbackLabel)
        guard let node else {
            let fix = "load v4l2loopback with card_label=\"\(spec.loopbackLabel)\" to enable it"
            if daemon.mode == .hardware {
                log.warning("\(label): no v4l2loopback device labelled \"\(spec.loopbackLabel)\"; readiness stays interrupted (noLoopback): \(fix), then restart foldcamd")
                problem(.noLoopback)
            } else {
                log.info("\(label): no v4l2loopback device labelled \"\(spec.loopbackLabel)\"; deciding without a producer (\(fix))")
            }
            return nil
        }
        let producer = try VirtualCameraProducer(configuration: .init(
            outputNode: node, format: format, width: mode.width, height: mode.height, fps: mode.fps, mirror: daemon.rig.virtualCamera.mirror, forwarding: config.virtualCameraForwarding))
        let controller = VirtualCameraController(producer: producer, plan: plan, label: label, log: log) { [unowned daemon] camera in
            guard let index = daemon.rig.cameraIndex(camera) else { return nil }
            if daemon.mode == .simulate {
                return .synthetic(index: index, sensorRotation: daemon.rig.cameras[index].sensorRotation)
            }
            return daemon.descriptors.first { $0.rigCamera == camera }?.node.map { .device(node: $0) }
        }
        controller.onReadinessChange = { [unowned daemon] in daemon.publish(candidates: [.readiness]) }
        // Cameras another virtual camera streams already are shared, not opened twice.
        controller.sharing = daemon.sharing
        controller.sharingID = slot.id
        daemon.sharing.register(slot.id, producer: producer)
        controller.metrics = daemon.metrics
        try watchReaders(controller: controller, label: label, node: node, loop: loop, config: config, log: log)
        try loop.register(producer.events.descriptor) { [unowned controller] _ in
            for event in producer.events.drain() { controller.handle(event) }
        }
        producer.start()
        slot.snapshots?.producer = producer
        slot.snapshots?.camera = controller
        daemon.attach(controller, to: slot)
        log.info("\(label): feeding \(node) with \(mode)")
        return (producer, controller)
    }

    /// How long after a busy camera failed to open it is tried again (the device layer probes
    /// busy cameras as often).
    static let busyRetryInterval = Duration.seconds(2)

    /// Counts the loopback's readers once the producer has it open (its own opens then lie
    /// behind the count), and runs the camera's grace period on a timer.
    private static func watchReaders(controller: VirtualCameraController, label: String, node: String, loop: EventLoop, config: DaemonConfig, log: Log) throws {
        let grace = UInt64(config.cameraIdleGraceMilliseconds) * 1_000_000
        controller.configureDemand(grace: grace, settle: 0)
        let timer = try Timer()
        try loop.register(timer.descriptor) { [unowned controller] _ in
            _ = timer.acknowledge()
            controller.advanceDemand()
        }
        // A busy camera is tried again after a while (two virtual cameras wanting one camera:
        // the second gets it once the first lets go; docs/virtual-camera.md).
        let busyRetry = try Timer()
        try loop.register(busyRetry.descriptor) { [unowned controller] _ in
            _ = busyRetry.acknowledge()
            controller.retryBusy()
        }
        controller.onBusy = { try? busyRetry.schedule(after: busyRetryInterval) }
        // What the loop watches for this controller, let go when the camera side is torn down.
        var watched: [FileDescriptor] = [timer.descriptor, busyRetry.descriptor]
        controller.detachFromLoop = { [unowned loop] in
            for descriptor in watched { loop.unregister(descriptor) }
            watched.removeAll()
            timer.cancel()
            busyRetry.cancel()
        }
        controller.onDemandDeadline = { deadline in
            guard let deadline else { return timer.cancel() }
            let now = MonotonicClock.nanoseconds
            try? timer.schedule(after: .nanoseconds(Int64(deadline > now ? deadline - now : 0)))
        }
        controller.onOutputReady = { [unowned controller, unowned loop] in
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
            controller.configureDemand(grace: grace, settle: settle)
            log.info("\(label): readers of \(node) detected by \(readers.method); the camera runs only while one reads (stops \(config.cameraIdleGraceMilliseconds) ms after the last leaves)")
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
    }
}
