import FoldcamCapture
import FoldcamCore
import FoldcamDevices
import FoldcamIO
import FoldcamPlatform
import FoldcamVideo

/// Builds the virtual camera producer and its controller when there is a loopback device to
/// feed: the one named on the command line or in the config, or the one udev lists with the
/// configured card label. Without one the daemon still decides and serves (and simulate-mode
/// snapshots are drawn on demand); on hardware its readiness then says what to fix
/// (`VirtualCameraSlot.problem`). `CameraService` wires and starts what this builds.
enum VirtualCameraSetup {
    struct Built {
        var producer: VirtualCameraProducer
        var controller: VirtualCameraController
        /// The loopback node the producer feeds.
        var node: String
        var mode: CameraMode
    }

    /// `label`: how the journal names the camera ("virtual camera", or with its id when the
    /// configuration lists several). `explicitNode` (--loopback) is the default camera's only.
    /// `node`: the loopback found for the camera's label (nil: none), when none is named.
    static func build(daemon: Daemon, camera slot: VirtualCameraSlot, label: String, config: DaemonConfig, explicitNode: String?, located: String?, log: Log) throws -> Built? {
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
        guard plan.modeChoice.chosen != nil, let written = plan.outputPixelFormat, let format = PixelFormat(rawValue: written),
              format.accepts(width: mode.width, height: mode.height) else {
            log.error("\(label): format \(mode) is not one the producer handles (NV12, YUYV): \(plan.modeChoice.explanation)")
            problem(.unsupportedFormat)
            return nil
        }
        guard config.feedsLoopback || explicitNode != nil else {
            log.info("\(label): feeds no v4l2loopback device (\"sinks\": \(config.sinks.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))); foldcam-pipewire publishes it in the user's session")
            return nil
        }
        let node = explicitNode ?? spec.loopbackDevice ?? located
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
            outputNode: node, format: format, width: mode.width, height: mode.height, fps: mode.fps, mirror: daemon.rig.virtualCamera.mirror, forwarding: config.virtualCameraForwarding,
            decodesMJPG: plan.modeChoice.verdict == .decoded(into: written)))
        producer.keepSnapshotHistory(daemon.snapshotHistoryWanted)
        let controller = VirtualCameraController(producer: producer, plan: plan, label: label, log: log)
        // Cameras another virtual camera streams already are shared, not opened twice.
        controller.sharing = daemon.sharing
        controller.sharingID = slot.id
        controller.metrics = daemon.metrics
        return Built(producer: producer, controller: controller, node: node, mode: mode)
    }

    /// Where a rig camera's frames come from: drawn in simulate mode, its device node on
    /// hardware; nil when the camera has no device right now.
    static func source(of camera: String, daemon: Daemon) -> VirtualCameraProducer.Source? {
        guard let index = daemon.rig.cameraIndex(camera) else { return nil }
        if daemon.mode == .simulate {
            return .synthetic(index: index, sensorRotation: daemon.rig.cameras[index].sensorRotation)
        }
        return daemon.descriptors.first { $0.rigCamera == camera }?.node.map { .device(node: $0) }
    }
}
