import FoldcamCore

/// One configured virtual camera on the daemon's side (docs/virtual-camera.md, "Several
/// virtual cameras"): what it follows, its plan (pool and format, fixed for its life), its
/// producer's controller while one runs, why none runs, and its snapshots. The daemon holds
/// one per entry of `virtualCameras`, the default one first; each has its own `CameraService`.
final class VirtualCameraSlot {
    /// As configured; a reload may give it another loopback (its id and follow stay).
    var spec: VirtualCameraSpec
    private(set) var plan: VirtualCameraPlan
    /// The running producer's controller (nil without a producer).
    var controller: VirtualCameraController?
    /// Why the producer did not start (hardware mode): set by `VirtualCameraSetup`.
    var problem: Readiness.Reason?
    /// A reload is replacing the producer: frames resume once the new one starts.
    var rebuilding = false
    /// Snapshots of what this camera shows.
    let snapshots: SnapshotService?

    var id: String { spec.id }

    init(spec: VirtualCameraSpec, plan: VirtualCameraPlan, snapshots: SnapshotService?) {
        self.spec = spec
        self.plan = plan
        self.snapshots = snapshots
    }

    /// A reload's plan (the rig may have changed); the controller decides with it from now on.
    func replacePlan(_ plan: VirtualCameraPlan) {
        self.plan = plan
        controller?.plan = plan
    }

    /// This camera's decision for a state.
    func source(_ engine: FoldEngine) -> VirtualCameraState {
        plan.source(rig: engine.rig, state: engine.state.displays, viewedDisplay: engine.state.viewedDisplay)
    }

    /// The producer's view when one runs; otherwise what keeps frames from a reader, or what
    /// the decision alone implies (simulation, no loopback).
    func readiness(_ engine: FoldEngine) -> Readiness {
        if let controller { return controller.readiness }
        if rebuilding { return .switching }
        if let problem { return .interrupted(problem) }
        return Readiness.derived(from: engine.state, source: source(engine), display: plan.follow.display(viewed: engine.state.viewedDisplay))
    }
}
