import FoldcamCapture
import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// Individual mode: the clients open the physical cameras; the daemon never holds one. When a
/// camera's capture rotation becomes 180° and the sensor has flip controls, it flips the sensor
/// (and back), so every client receives upright frames without turning them itself. Which
/// cameras are flipped is published in the `devices` topic (`sensorFlipped`). Device access
/// happens on a worker thread; results return to the event loop through a mailbox.
final class IndividualCameraControl {
    struct Result: Sendable {
        var camera: String
        var flipped: Bool
        var error: String?
    }

    let results: Mailbox<Result>
    /// Sets the controls off the loop, one camera at a time.
    private let worker: Worker
    private let log: Log
    /// What each camera's sensor is set to (only cameras we changed or confirmed).
    private(set) var flipped: [String: Bool] = [:]
    private var pending: Set<String> = []

    init(log: Log) throws(SystemCallError) {
        self.log = log
        results = try Mailbox()
        worker = try Worker(name: "foldcam-controls")
    }

    /// Brings each camera's flip in line with its capture rotation.
    func update(state: FoldState, rig: Rig, descriptors: [CameraDescriptor]) {
        for (index, camera) in rig.cameras.enumerated() {
            guard let descriptor = descriptors.first(where: { $0.rigCamera == camera.id }), let node = descriptor.node,
                  let controls = descriptor.provenance?.controls, controls.contains("hflip"), controls.contains("vflip") else { continue }
            let want = state.cameras[index].captureRotation == 180
            guard flipped[camera.id, default: false] != want, !pending.contains(camera.id) else { continue }
            pending.insert(camera.id)
            let results = self.results
            let id = camera.id
            worker.submit {
                switch CameraControls.setFlipped(node: node, want) {
                case .success: results.post(Result(camera: id, flipped: want, error: nil))
                case let .failure(error): results.post(Result(camera: id, flipped: !want, error: "\(error)"))
                }
            }
        }
    }

    /// On the loop: records what the worker did. True when a published value changed.
    func handle(_ result: Result) -> Bool {
        pending.remove(result.camera)
        if let error = result.error {
            log.warning("individual mode: could not flip \(result.camera): \(error)")
        }
        let changed = flipped[result.camera, default: false] != result.flipped
        flipped[result.camera] = result.flipped
        if changed { log.info("individual mode: \(result.camera) sensor \(result.flipped ? "flipped 180°" : "upright")") }
        return changed
    }
}
