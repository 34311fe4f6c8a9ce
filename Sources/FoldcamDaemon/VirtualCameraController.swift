import FoldcamCapture
import FoldcamCore
import FoldcamIO
import FoldcamPlatform
import FoldcamVideo

/// Connects the decisions to the producer: turns each new state into the switcher's candidate
/// list, carries out the switcher's actions on the producer, and feeds the producer's events
/// (first frame, failures) back. Runs on the event loop.
final class VirtualCameraController {
    let producer: VirtualCameraProducer
    private var switcher = SourceSwitcher()
    private let log: Log
    /// What the controller tells and asks the camera side that built it (set once; see
    /// `VirtualCameraControllerOwner`).
    weak var owner: VirtualCameraControllerOwner?
    /// Opens, failures and switch times for operators (docs/metrics.md).
    var metrics: DaemonMetrics?
    private var rotations: [String: Int] = [:]
    /// How far ahead of a moving hinge to look for a coming switch (pre-warm), degrees.
    var prewarmWindow: Double = 10
    private var lastAngles: [Double] = []
    private var timing = SwitchTiming()
    private var wanted: String?
    /// Whether the source runs (someone reads, or a snapshot waits); idle until the loopback's
    /// readers are known (docs/virtual-camera.md, "Only while watched").
    private(set) var demand = CameraDemand(grace: 2_000_000_000)
    /// Whether the producer was told to show the idle frame since the camera last ran.
    private var idleShown = false
    /// The last decision, re-applied when the camera starts or stops.
    private var engine: FoldEngine?
    /// Cameras found busy and not delivered since: their retries are logged at debug only.
    private var stillBusy: Set<String> = []

    /// Who streams the cameras several virtual cameras need (nil: every open is its own).
    var sharing: CameraSharing?
    /// This camera's id in `sharing`.
    var sharingID = VirtualCameraSpec.defaultID

    /// What this camera decides with: its pool and the display it follows (a reload may
    /// replace it).
    var plan: VirtualCameraPlan
    /// How the journal names this camera: "virtual camera", or "virtual camera ID" when the
    /// configuration lists several.
    let label: String

    init(producer: VirtualCameraProducer, plan: VirtualCameraPlan, label: String = "virtual camera", log: Log) {
        self.producer = producer
        self.plan = plan
        self.label = label
        self.log = log
    }

    /// Set once the loopback failed: a camera's frames then reach no reader, so nothing is ready.
    private(set) var outputBroken = false

    /// Ready only while a camera's frames reach the loopback (docs/virtual-camera.md, "Readiness");
    /// idle while nobody reads it.
    var readiness: Readiness { outputBroken ? .interrupted(.outputFailed) : demand.running ? (readinessBeforeRetry ?? switcher.readiness) : .idle }
    /// While a busy camera is tried again (`retryBusy`): the readiness from before, so a camera
    /// another virtual camera holds does not turn readiness to `switching` and back every try.
    private var readinessBeforeRetry: Readiness?
    var feeding: String? { switcher.feeding }

    /// A new decision: the candidates, best first, and the capture rotation of each camera.
    func update(engine: FoldEngine) {
        self.engine = engine
        let before = readiness
        readinessBeforeRetry = nil
        guard demand.running else {
            // Idle: every camera closed, the loopback keeps its idle frame.
            perform(switcher.prewarm(nil))
            perform(switcher.decide(candidates: []))
            if readiness != before { owner?.controllerReadinessChanged(self) }
            return
        }
        let state = engine.state, rig = engine.rig
        let candidates = plan.candidates(rig: rig, state: state.displays, viewedDisplay: state.viewedDisplay).map { rig.cameras[$0].id }
        rotations = Dictionary(uniqueKeysWithValues: rig.cameras.indices.map { (rig.cameras[$0].id, state.cameras[$0].captureRotation) })
        let reason: Readiness.Reason
        switch Readiness.derived(from: state, source: plan.source(rig: rig, state: state.displays, viewedDisplay: state.viewedDisplay), display: plan.follow.display(viewed: state.viewedDisplay)) {
        case let .interrupted(derived): reason = derived
        default: reason = .noForwardCamera
        }
        if candidates.first != wanted {
            wanted = candidates.first
            timing.decided(wanted, at: MonotonicClock.nanoseconds)
        }
        perform(switcher.decide(candidates: candidates, noneBecause: reason))
        perform(switcher.prewarm(predictedSource(engine: engine, current: candidates.first)))
        // The camera being fed may have turned (gravity, mount): tell the producer.
        if let feeding = switcher.feeding { producer.send(.feed(camera: feeding, rotation: rotations[feeding] ?? 0)) }
        if readiness != before { owner?.controllerReadinessChanged(self) }
    }

    // MARK: Demand

    /// The number of applications reading the loopback changed.
    func readersChanged(_ count: Int) {
        let before = demand.readers
        changeDemand { $0.readers(count, at: MonotonicClock.nanoseconds) }
        if !demand.running && demand.readers == 0 && !idleShown {
            // The producer writes nothing until told. With nobody reading: the idle frame, once
            // (it keeps the loopback offering a picture to the next reader that opens).
            idleShown = true
            producer.send(.idle)
        }
        if count != before { log.info("\(label): \(count) reader\(count == 1 ? "" : "s")\(demand.running ? "" : count > 0 ? " (waiting for the opener to stay)" : "")") }
    }

    /// A snapshot needs a frame while nobody reads (the camera starts for it).
    func snapshotBegan() { changeDemand { $0.snapshotBegan(at: MonotonicClock.nanoseconds) } }
    func snapshotEnded() { changeDemand { $0.snapshotEnded(at: MonotonicClock.nanoseconds) } }

    /// The demand's deadline passed (grace period over, an opener stayed).
    func advanceDemand() { changeDemand { $0.advance(now: MonotonicClock.nanoseconds) } }

    /// The grace period after the last reader left, nanoseconds (a reload may change it).
    var demandGrace: UInt64 {
        get { demand.grace }
        set { demand.grace = newValue }
    }

    /// Sets the grace period and the opener settle time (before the first count).
    func configureDemand(grace: UInt64, settle: UInt64) {
        demand.grace = grace
        demand.settle = settle
    }

    /// Runs `body` on the demand, starts or stops the camera as it says, and publishes the
    /// readiness when it changed (`idle` and back).
    private func changeDemand(_ body: (inout CameraDemand) -> CameraDemand.Change?) {
        let before = readiness
        apply(body(&demand))
        if readiness != before { owner?.controllerReadinessChanged(self) }
    }

    private func apply(_ change: CameraDemand.Change?) {
        owner?.controller(self, demandDeadline: demand.deadline)
        guard let change else { return }
        switch change {
        case .start:
            idleShown = false
            log.info("\(label): starting the camera (\(demand.readers > 0 ? "a reader is watching" : "a snapshot needs a frame"))")
        case .stop:
            log.info("\(label): nobody is watching; the camera is off")
            // Back to noSource; the switch timing starts afresh with the next reader.
            wanted = nil
            idleShown = true
            producer.send(.idle)
        }
        if let engine { update(engine: engine) }
    }

    /// The source the virtual camera will switch to if a moving hinge keeps moving for
    /// `prewarmWindow` degrees; nil when no switch is coming (or nothing moves).
    private func predictedSource(engine: FoldEngine, current: String?) -> String? {
        let angles = engine.state.hingeAngles
        defer { lastAngles = angles }
        guard lastAngles.count == angles.count else { return nil }
        for hinge in angles.indices {
            let delta = angles[hinge] - lastAngles[hinge]
            guard abs(delta) > 0.05 else { continue }
            let spec = engine.rig.hinges[hinge]
            let ahead = min(max(angles[hinge] + (delta > 0 ? prewarmWindow : -prewarmWindow), spec.minimum), spec.maximum)
            // The engine is a value: probing a copy leaves the real decisions untouched.
            var probe = engine
            _ = probe.apply(.hingeAngle(hinge: hinge, degrees: ahead))
            let next = plan.candidates(rig: probe.rig, state: probe.state.displays, viewedDisplay: probe.state.viewedDisplay).first
            if let next, next != engine.rig.cameraIndex(current ?? "") {
                return engine.rig.cameras[next].id
            }
        }
        return nil
    }

    /// The cameras present changed (hotplug): a camera that could not be opened, for instance
    /// because its device node was not known yet, is tried again.
    func devicesChanged() {
        guard demand.running else { return }
        let before = readiness
        readinessBeforeRetry = nil
        perform(switcher.retryFailed())
        if readiness != before { owner?.controllerReadinessChanged(self) }
    }

    /// The busy-retry timer (`controllerFoundBusy`): tries the failed cameras again, reporting the readiness
    /// of before until the try delivers a frame or fails.
    func retryBusy() {
        guard demand.running, !stillBusy.isEmpty else { return devicesChanged() }
        let before = readiness
        let actions = switcher.retryFailed()
        // Held only while an open is under way: its first frame or failure clears it.
        if actions.contains(where: { if case .open = $0 { true } else { false } }) { readinessBeforeRetry = before }
        perform(actions)
        if readiness != before { owner?.controllerReadinessChanged(self) }
    }

    func handle(_ event: VirtualCameraProducer.Event) {
        let before = readiness
        // The try a retry started has come out: readiness says what is true again.
        if case .firstFrame = event { readinessBeforeRetry = nil }
        if case .failed = event { readinessBeforeRetry = nil }
        switch event {
        case let .firstFrame(camera):
            timing.firstFrame(camera, at: MonotonicClock.nanoseconds)
            stillBusy.remove(camera)
            perform(switcher.firstFrame(from: camera))
        case let .failed(camera, _, message) where sharing?.failed(camera, in: sharingID) == false:
            // Kept open for another virtual camera only: that one reports it (its feed ends).
            log.info("\(label): \(camera), streamed for another virtual camera, failed: \(message)")
        case let .failed(camera, reason, message):
            if reason == .busy && stillBusy.contains(camera) {
                log.debug("\(label): \(camera) is still busy: \(message)")
            } else {
                log.warning("\(label): \(camera) failed (\(reason.rawValue)): \(message)\(reason == .busy ? "; trying again every \(CameraLoopWatch.busyRetryInterval)" : "")")
            }
            if reason == .busy { stillBusy.insert(camera) }
            metrics?.cameraOpenFailed(camera)
            perform(switcher.failed(camera, reason: reason))
            if reason == .busy { owner?.controllerFoundBusy(self) }
        case let .outputFailed(message):
            log.error("\(label) output: \(message); readiness stays interrupted (outputFailed) until the daemon is restarted")
            outputBroken = true
        case let .degraded(message):
            log.warning("\(label): \(message)")
        case let .forwarding(camera, path):
            // Which path runs and why (docs/virtual-camera.md, "Frames are not copied").
            log.info("\(label): \(camera.map { "\($0) forwarding" } ?? "loopback output forwarding"): \(path)")
        case let .firstZeroCopyFrame(camera):
            log.info("\(label): \(camera)'s frames reach the loopback with no copy (queued in the buffer the camera captured into)")
        case .outputReady:
            owner?.controllerOutputReady(self)
        case .stopped:
            owner?.controllerStopped(self)
        }
        if readiness != before { owner?.controllerReadinessChanged(self) }
    }

    private func perform(_ actions: [SourceSwitcher.Action]) {
        for action in actions {
            switch action {
            case let .open(camera):
                log.debug("\(label): opening \(camera)\(camera == switcher.warming ? " ahead of a likely switch (pre-warm)" : "")")
                timing.opened(camera, at: MonotonicClock.nanoseconds)
                metrics?.cameraOpened(camera)
                if let source = owner?.source(of: camera, for: self) {
                    switch sharing?.open(camera, by: sharingID) ?? .device {
                    case .device: producer.send(.open(camera: camera, source: source))
                    case let .shared(feed): producer.send(.open(camera: camera, source: .shared(feed)))
                    case let .refused(message): handle(.failed(camera: camera, reason: .busy, message: message))
                    }
                } else {
                    // No device for it right now: same as a failed open; try the next.
                    readinessBeforeRetry = nil
                    metrics?.cameraOpenFailed(camera)
                    perform(switcher.failed(camera, reason: .unplugged))
                }
            case let .close(camera):
                timing.closed(camera)
                if sharing?.close(camera, by: sharingID) ?? true { producer.send(.close(camera: camera)) }
            case let .feed(camera):
                producer.send(.feed(camera: camera, rotation: rotations[camera] ?? 0))
                let report = timing.fed(camera, at: MonotonicClock.nanoseconds)
                if let report { metrics?.switchFed(afterSeconds: Double(report.decisionToFeed) / 1e9) }
                log.info("\(label) now shows \(camera)\(report.map(Self.describe) ?? "")")
                owner?.controllerReadinessChanged(self)  // the readiness value names the camera that feeds it
            case .feedUnavailable where !demand.running:
                producer.send(.idle)
            case .feedUnavailable:
                producer.send(.feedUnavailable)
                log.notice("\(label): no camera available; showing the 'camera unavailable' frame")
            }
        }
    }

    /// ", 455 ms after the decision (the camera took 430 ms from open to its first frame)".
    static func describe(_ report: SwitchTiming.Report) -> String {
        func ms(_ ns: UInt64) -> String { "\((ns + 500_000) / 1_000_000) ms" }
        let start = report.prewarmed ? "pre-warmed: streaming before the decision" : report.cameraStart.map { "the camera took \(ms($0)) from open to its first frame" }
        return ", \(ms(report.decisionToFeed)) after the decision" + (start.map { " (\($0))" } ?? "")
    }
}

/// What a virtual camera controller tells and asks the camera side that built it
/// (`CameraService`), in one place instead of a callback each.
protocol VirtualCameraControllerOwner: AnyObject {
    /// Where a rig camera's frames come from (synthetic in simulate mode, a device node on
    /// hardware); nil when the camera has no device right now.
    func source(of camera: String, for controller: VirtualCameraController) -> VirtualCameraProducer.Source?
    /// The producer has the loopback open (reader detection starts then, so the daemon's own
    /// opens are behind it).
    func controllerOutputReady(_ controller: VirtualCameraController)
    /// Readiness may have changed.
    func controllerReadinessChanged(_ controller: VirtualCameraController)
    /// The producer has stopped and closed every device (a reload's rebuild waits for it).
    func controllerStopped(_ controller: VirtualCameraController)
    /// `demand.deadline` changed: the owner arms a timer for `advanceDemand` (nil: none).
    func controller(_ controller: VirtualCameraController, demandDeadline: UInt64?)
    /// A camera could not be opened because it is busy: another program, or another virtual
    /// camera of this daemon, streams it. The owner calls `retryBusy` a little later, so the
    /// camera is taken once it is let go (nothing else would say so: the device layer's probe
    /// opens succeed while a stream runs).
    func controllerFoundBusy(_ controller: VirtualCameraController)
}
