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
    private var rotations: [String: Int] = [:]

    init(producer: VirtualCameraProducer, log: Log, sourceOf: @escaping (String) -> VirtualCameraProducer.Source?) {
        self.producer = producer
        self.log = log
        self.sourceOf = sourceOf
    }

    var readiness: Readiness { switcher.readiness }
    var feeding: String? { switcher.feeding }

    /// A new decision: the candidates, best first, and the capture rotation of each camera.
    func update(state: FoldState, rig: Rig, plan: VirtualCameraPlan) {
        let candidates = plan.candidates(rig: rig, state: state.displays, viewedDisplay: state.viewedDisplay).map { rig.cameras[$0].id }
        rotations = Dictionary(uniqueKeysWithValues: rig.cameras.indices.map { (rig.cameras[$0].id, state.cameras[$0].captureRotation) })
        let reason: Readiness.Reason
        switch Readiness.derived(from: state) {
        case let .interrupted(derived): reason = derived
        default: reason = .noForwardCamera
        }
        let before = switcher.readiness
        perform(switcher.decide(candidates: candidates, noneBecause: reason))
        // The camera being fed may have turned (gravity, mount): tell the producer.
        if let feeding = switcher.feeding { producer.send(.feed(camera: feeding, rotation: rotations[feeding] ?? 0)) }
        if switcher.readiness != before { onReadinessChange?() }
    }

    func handle(_ event: VirtualCameraProducer.Event) {
        let before = switcher.readiness
        switch event {
        case let .firstFrame(camera):
            perform(switcher.firstFrame(from: camera))
        case let .failed(camera, reason, message):
            log.warning("virtual camera: \(camera) failed (\(reason.rawValue)): \(message)")
            perform(switcher.failed(camera, reason: reason))
        case let .outputFailed(message):
            log.error("virtual camera output: \(message)")
        case .stopped:
            break
        }
        if switcher.readiness != before { onReadinessChange?() }
    }

    private func perform(_ actions: [SourceSwitcher.Action]) {
        for action in actions {
            switch action {
            case let .open(camera):
                if let source = sourceOf(camera) {
                    producer.send(.open(camera: camera, source: source))
                } else {
                    // No device for it right now: same as a failed open; try the next.
                    perform(switcher.failed(camera, reason: .unplugged))
                }
            case let .close(camera):
                producer.send(.close(camera: camera))
            case let .feed(camera):
                producer.send(.feed(camera: camera, rotation: rotations[camera] ?? 0))
                log.info("virtual camera now shows \(camera)")
            case .feedUnavailable:
                producer.send(.feedUnavailable)
                log.notice("virtual camera: no camera available; showing the 'camera unavailable' frame")
            }
        }
    }
}
