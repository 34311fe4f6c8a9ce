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
    /// Where each rig camera's frames come from (synthetic in simulate mode, a device node on
    /// hardware); nil when the camera has no device right now.
    var sourceOf: (String) -> VirtualCameraProducer.Source?
    /// Called when readiness may have changed.
    var onReadinessChange: (() -> Void)?
    /// Called once the producer has stopped and closed every device (a reload's rebuild waits for it).
    var onStopped: (() -> Void)?
    /// Opens, failures and switch times for operators (docs/metrics.md).
    var metrics: DaemonMetrics?
    private var rotations: [String: Int] = [:]
    /// How far ahead of a moving hinge to look for a coming switch (pre-warm), degrees.
    var prewarmWindow: Double = 10
    private var lastAngles: [Double] = []
    private var timing = SwitchTiming()
    private var wanted: String?

    init(producer: VirtualCameraProducer, log: Log, sourceOf: @escaping (String) -> VirtualCameraProducer.Source?) {
        self.producer = producer
        self.log = log
        self.sourceOf = sourceOf
    }

    /// Set once the loopback failed: a camera's frames then reach no reader, so nothing is ready.
    private(set) var outputBroken = false

    /// Ready only while a camera's frames reach the loopback (docs/virtual-camera.md, "Readiness").
    var readiness: Readiness { outputBroken ? .interrupted(.outputFailed) : switcher.readiness }
    var feeding: String? { switcher.feeding }

    /// A new decision: the candidates, best first, and the capture rotation of each camera.
    func update(engine: FoldEngine) {
        let state = engine.state, rig = engine.rig, plan = engine.plan
        let candidates = plan.candidates(rig: rig, state: state.displays, viewedDisplay: state.viewedDisplay).map { rig.cameras[$0].id }
        rotations = Dictionary(uniqueKeysWithValues: rig.cameras.indices.map { (rig.cameras[$0].id, state.cameras[$0].captureRotation) })
        let reason: Readiness.Reason
        switch Readiness.derived(from: state) {
        case let .interrupted(derived): reason = derived
        default: reason = .noForwardCamera
        }
        let before = switcher.readiness
        if candidates.first != wanted {
            wanted = candidates.first
            timing.decided(wanted, at: MonotonicClock.nanoseconds)
        }
        perform(switcher.decide(candidates: candidates, noneBecause: reason))
        perform(switcher.prewarm(predictedSource(engine: engine, current: candidates.first)))
        // The camera being fed may have turned (gravity, mount): tell the producer.
        if let feeding = switcher.feeding { producer.send(.feed(camera: feeding, rotation: rotations[feeding] ?? 0)) }
        if switcher.readiness != before { onReadinessChange?() }
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
            let next = probe.plan.candidates(rig: probe.rig, state: probe.state.displays, viewedDisplay: probe.state.viewedDisplay).first
            if let next, next != engine.rig.cameraIndex(current ?? "") {
                return engine.rig.cameras[next].id
            }
        }
        return nil
    }

    /// The cameras present changed (hotplug): a camera that could not be opened, for instance
    /// because its device node was not known yet, is tried again.
    func devicesChanged() {
        let before = switcher.readiness
        perform(switcher.retryFailed())
        if switcher.readiness != before { onReadinessChange?() }
    }

    func handle(_ event: VirtualCameraProducer.Event) {
        let before = readiness
        switch event {
        case let .firstFrame(camera):
            timing.firstFrame(camera, at: MonotonicClock.nanoseconds)
            perform(switcher.firstFrame(from: camera))
        case let .failed(camera, reason, message):
            log.warning("virtual camera: \(camera) failed (\(reason.rawValue)): \(message)")
            metrics?.cameraOpenFailed(camera)
            perform(switcher.failed(camera, reason: reason))
        case let .outputFailed(message):
            log.error("virtual camera output: \(message); readiness stays interrupted (outputFailed) until the daemon is restarted")
            outputBroken = true
        case let .degraded(message):
            log.warning("virtual camera: \(message)")
        case .stopped:
            onStopped?()
        }
        if readiness != before { onReadinessChange?() }
    }

    private func perform(_ actions: [SourceSwitcher.Action]) {
        for action in actions {
            switch action {
            case let .open(camera):
                log.debug("virtual camera: opening \(camera)\(camera == switcher.warming ? " ahead of a likely switch (pre-warm)" : "")")
                timing.opened(camera, at: MonotonicClock.nanoseconds)
                metrics?.cameraOpened(camera)
                if let source = sourceOf(camera) {
                    producer.send(.open(camera: camera, source: source))
                } else {
                    // No device for it right now: same as a failed open; try the next.
                    metrics?.cameraOpenFailed(camera)
                    perform(switcher.failed(camera, reason: .unplugged))
                }
            case let .close(camera):
                timing.closed(camera)
                producer.send(.close(camera: camera))
            case let .feed(camera):
                producer.send(.feed(camera: camera, rotation: rotations[camera] ?? 0))
                let report = timing.fed(camera, at: MonotonicClock.nanoseconds)
                if let report { metrics?.switchFed(afterSeconds: Double(report.decisionToFeed) / 1e9) }
                log.info("virtual camera now shows \(camera)\(report.map(Self.describe) ?? "")")
            case .feedUnavailable:
                producer.send(.feedUnavailable)
                log.notice("virtual camera: no camera available; showing the 'camera unavailable' frame")
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
