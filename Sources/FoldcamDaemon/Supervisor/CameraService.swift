import FoldcamCapture
import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// The camera side of the daemon for one virtual camera (one per entry of `virtualCameras`):
/// its producer and controller, or (the default camera's service only) individual mode's
/// sensor flips. It is built from a `Blueprint` (mode, loopback, pool, format, mirror);
/// a reload whose blueprint differs rebuilds it: the old producer stops, closing its cameras
/// and the loopback, before the new one opens them. What cannot be rebuilt under running
/// readers is refused with what to do instead.
final class CameraService: DaemonService {
    /// What the camera side is built from. Two equal blueprints build the same thing.
    struct Blueprint: Equatable {
        var cameraMode: DaemonConfig.CameraMode
        /// The loopback as configured: `--loopback`, else `loopbackDevice`, else the label.
        var loopback: String
        /// The pool's camera ids: which cameras may feed the virtual camera.
        var pool: [String]
        var format: CameraMode?
        var mirror: Bool

        init(config: DaemonConfig, spec: VirtualCameraSpec, rig: Rig, plan: VirtualCameraPlan, explicitNode: String?) {
            cameraMode = config.cameraMode
            loopback = explicitNode ?? spec.loopbackDevice ?? "label \"\(spec.loopbackLabel)\""
            pool = plan.pool.map { rig.cameras[$0].id }
            format = plan.format
            mirror = rig.virtualCamera.mirror
        }
    }

    private enum Running {
        case none
        case individual(IndividualCameraControl)
        case virtual(VirtualCamera)
    }

    /// A running virtual camera: what it is built of and what the loop watches for it.
    private struct VirtualCamera {
        var producer: VirtualCameraProducer
        var controller: VirtualCameraController
        var watch: CameraLoopWatch
    }

    var serviceName: String { label == "virtual camera" ? "cameras" : label }
    private let daemon: Daemon
    private let camera: VirtualCameraSlot
    /// The first configured camera's service: it alone takes --loopback, individual mode and
    /// the frames group (the loopback's group; docs/security.md).
    private let isDefault: Bool
    /// How the journal names this camera.
    private let label: String
    private let server: ControlServer
    private let loop: EventLoop
    private let explicitNode: String?
    private let log: Log
    private var config: DaemonConfig
    private var blueprint: Blueprint
    private var running: Running = .none
    /// Producers told to stop whose `.stopped` has not arrived (with their controllers, which
    /// handle that event): the next one starts after.
    private var stopping: [VirtualCamera] = []
    private var rebuildWhenStopped = false
    /// Built once the device layer has located this camera's loopback label.
    private var waitingForLoopback = false

    init(daemon: Daemon, camera: VirtualCameraSlot, server: ControlServer, loop: EventLoop, config: DaemonConfig, explicitNode: String?, log: Log) {
        self.daemon = daemon
        self.camera = camera
        isDefault = daemon.cameras.first === camera
        label = daemon.cameras.count > 1 ? "virtual camera \(camera.id)" : "virtual camera"
        self.server = server
        self.loop = loop
        self.explicitNode = isDefault ? explicitNode : nil
        self.log = log
        self.config = config
        blueprint = Blueprint(config: config, spec: camera.spec, rig: daemon.rig, plan: camera.plan, explicitNode: self.explicitNode)
    }

    func start() throws {
        // Simulation has no device thread: the directory's worker locates, while start waits.
        if daemon.mode == .simulate, let label = labelToLocate {
            try daemon.loopbacks.search([label], loop: loop)
            daemon.loopbacks.awaitSearches()
        }
        try build()
    }

    /// The card label this camera's loopback is found by; nil when a node is named.
    private var labelToLocate: String? {
        config.cameraMode == .virtual && config.feedsLoopback && explicitNode == nil && camera.spec.loopbackDevice == nil ? camera.spec.loopbackLabel : nil
    }

    /// The running producer's counters, for the metrics (nil without a producer).
    var producerStatistics: VirtualCameraProducer.Statistics? {
        if case let .virtual(camera) = running { return camera.producer.stats }
        return nil
    }

    /// This camera's blueprint in a reload (the list of cameras itself cannot change: see
    /// `checkReload`).
    private func blueprint(for reload: ReloadWorker.Prepared) -> Blueprint {
        let spec = reload.config.virtualCameras.first { $0.id == camera.id } ?? camera.spec
        let plan = reload.cameraPlans[camera.id] ?? VirtualCameraPlan(rig: reload.rig, follow: spec.follow(in: reload.rig) ?? .viewed, sink: .available)
        return Blueprint(config: reload.config, spec: spec, rig: reload.rig, plan: plan, explicitNode: explicitNode)
    }

    func checkReload(_ reload: ReloadWorker.Prepared) throws {
        let next = blueprint(for: reload)
        let restart = "restart foldcamd (systemctl restart foldcamd) to apply it"
        // One service per camera, built at start: a different list needs a restart.
        if isDefault, reload.config.cameraMode == .virtual, reload.config.virtualCameras.map(\.id) != daemon.cameras.map(\.id) {
            throw ReloadWorker.ReloadFailure(description: "the virtual cameras would change from \(daemon.cameras.map(\.id).joined(separator: ", ")) to \(reload.config.virtualCameras.map(\.id).joined(separator: ", ")); \(restart)")
        }
        if let spec = reload.config.virtualCameras.first(where: { $0.id == camera.id }), spec.follows != camera.spec.follows {
            throw ReloadWorker.ReloadFailure(description: "\(label) would follow \(spec.follows) instead of \(camera.spec.follows); \(restart)")
        }
        if next.cameraMode != blueprint.cameraMode {
            throw ReloadWorker.ReloadFailure(description: "cameraMode would change from \(blueprint.cameraMode.rawValue) to \(next.cameraMode.rawValue); \(restart)")
        }
        // Readers of the loopback hold its format: the same node cannot change it under them.
        if next.cameraMode == .virtual, next.loopback == blueprint.loopback, next.format != blueprint.format, producerStatistics != nil {
            let old = blueprint.format.map { "\($0)" } ?? "none", new = next.format.map { "\($0)" } ?? "none"
            throw ReloadWorker.ReloadFailure(description: "\(label == "virtual camera" ? "the virtual camera" : label)'s format would change from \(old) to \(new) on the same loopback (its readers hold the format); \(restart), or name another loopback")
        }
    }

    func applyReload(_ reload: ReloadWorker.Prepared) {
        let next = blueprint(for: reload)
        config = reload.config
        if let spec = reload.config.virtualCameras.first(where: { $0.id == camera.id }) { camera.spec = spec }
        // The grace period and the snapshot settle count apply at once, without a rebuild.
        if case let .virtual(running) = running { running.controller.demandGrace = UInt64(config.cameraIdleGraceMilliseconds) * 1_000_000 }
        camera.snapshots?.settleFrames = config.snapshotSettleFrames
        guard next != blueprint else { return }
        log.notice("\(label): rebuilding for the new configuration (\(Self.differences(blueprint, next)))")
        blueprint = next
        tearDown(rebuilding: true)
        if stopping.isEmpty { rebuild() } else { rebuildWhenStopped = true }
    }

    func stop() {
        rebuildWhenStopped = false
        waitingForLoopback = false
        tearDown()
    }

    // MARK: Building and tearing down

    private func build() throws {
        if config.cameraMode == .individual {
            guard isDefault else { return }
            let control = try IndividualCameraControl(log: log)
            try loop.register(control.results.descriptor) { [unowned daemon] _ in
                for result in control.results.drain() where control.handle(result) { daemon.publish(candidates: [.devices]) }
            }
            daemon.attach(individual: control)
            running = .individual(control)
            log.info("individual camera mode: clients open the cameras; sensors are flipped when a capture needs 180°")
            return
        }
        var located: String?
        if let label = labelToLocate {
            switch daemon.loopbacks.lookup(label) {
            case let .located(node):
                located = node
            case .unknown:
                // Located off the loop; built when the answer comes (readiness: switching).
                if daemon.mode == .simulate { try daemon.loopbacks.search([label], loop: loop) }
                waitingForLoopback = true
                camera.rebuilding = true
                daemon.loopbacks.wait(for: label, self)
                log.debug("\(label): waiting for the device layer to locate loopback \"\(label)\"")
                return
            }
        }
        guard let built = try VirtualCameraSetup.build(daemon: daemon, camera: camera, label: label, config: config, explicitNode: explicitNode, located: located, log: log)
        else { return }
        let producer = built.producer, controller = built.controller
        let watch = try CameraLoopWatch(producer: producer, controller: controller, node: built.node, label: label, loop: loop, graceMilliseconds: config.cameraIdleGraceMilliseconds, log: log)
        controller.owner = self
        // Running before the first decision reaches the controller: its deadlines find the watch.
        running = .virtual(VirtualCamera(producer: producer, controller: controller, watch: watch))
        daemon.sharing.register(camera.id, producer: producer)
        producer.start()
        camera.snapshots?.producer = producer
        camera.snapshots?.camera = controller
        daemon.attach(controller, to: camera)
        log.info("\(label): feeding \(built.node) with \(built.mode)")
        if isDefault { server.authorizer.cameraGroup = producer.configuration.outputNode.flatMap { DaemonRunner.cameraGroup(of: $0) } }
    }

    /// Stops what runs; a producer's cameras and loopback are closed once its `.stopped` arrives.
    /// `rebuilding`: a new one follows (readiness says switching meanwhile).
    private func tearDown(rebuilding: Bool = false) {
        switch running {
        case .none:
            break
        case let .individual(control):
            loop.unregister(control.results.descriptor)
            daemon.attach(individual: nil)
        case let .virtual(running):
            running.watch.detachDemand()
            daemon.sharing.unregister(camera.id)
            camera.rebuilding = rebuilding
            daemon.attach(nil, to: camera)
            camera.snapshots?.producer = nil
            if isDefault { server.authorizer.cameraGroup = nil }
            stopping.append(running)
            running.producer.send(.stop)
        }
        running = .none
    }

    /// A producer finished stopping: its thread let go of every device.
    private func stopped(_ controller: VirtualCameraController) {
        guard let index = stopping.firstIndex(where: { $0.controller === controller }) else { return }
        let stopped = stopping.remove(at: index)
        stopped.watch.detachProducer()
        log.info("\(label): stopped feeding \(stopped.producer.configuration.outputNode ?? "no loopback")")
        if stopping.isEmpty && rebuildWhenStopped {
            rebuildWhenStopped = false
            rebuild()
        }
    }

    private func rebuild() {
        camera.problem = nil
        camera.rebuilding = false
        do {
            try build()
        } catch {
            log.error("\(label): cannot start for the new configuration: \(error); decisions go on without it")
        }
        daemon.publish(candidates: [.readiness])
    }

    /// "loopback /dev/video9 → /dev/video10, pool inner-front → inner-front, outer-front".
    static func differences(_ old: Blueprint, _ new: Blueprint) -> String {
        var parts: [String] = []
        if old.loopback != new.loopback { parts.append("loopback \(old.loopback) → \(new.loopback)") }
        if old.pool != new.pool { parts.append("pool \(old.pool.joined(separator: ", ")) → \(new.pool.joined(separator: ", "))") }
        if old.format != new.format { parts.append("format \(old.format.map { "\($0)" } ?? "none") → \(new.format.map { "\($0)" } ?? "none")") }
        if old.mirror != new.mirror { parts.append("mirror \(old.mirror) → \(new.mirror)") }
        return parts.joined(separator: "; ")
    }
}

extension CameraService: LoopbackWaiter {
    func loopbackLocated(_ label: String) {
        guard waitingForLoopback, case .none = running, stopping.isEmpty else { return }
        waitingForLoopback = false
        rebuild()
    }
}

extension CameraService: VirtualCameraControllerOwner {
    func source(of camera: String, for controller: VirtualCameraController) -> VirtualCameraProducer.Source? {
        VirtualCameraSetup.source(of: camera, daemon: daemon)
    }

    func controllerOutputReady(_ controller: VirtualCameraController) { watch(of: controller)?.watchReaders() }
    func controllerReadinessChanged(_ controller: VirtualCameraController) { daemon.publish(candidates: [.readiness]) }
    func controllerStopped(_ controller: VirtualCameraController) { stopped(controller) }

    func controller(_ controller: VirtualCameraController, demandDeadline: UInt64?) {
        watch(of: controller)?.schedule(demandDeadline: demandDeadline)
    }

    func controllerFoundBusy(_ controller: VirtualCameraController) { watch(of: controller)?.retryBusyLater() }

    /// The running camera's watch; nil for a controller being stopped (its demand is let go).
    private func watch(of controller: VirtualCameraController) -> CameraLoopWatch? {
        guard case let .virtual(camera) = running, camera.controller === controller else { return nil }
        return camera.watch
    }
}
