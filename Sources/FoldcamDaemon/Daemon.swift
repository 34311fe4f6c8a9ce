import FoldcamCapture
import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// The daemon's state on the event loop: the decision engine, the camera descriptors, the
/// event sequence, and publishing each change to subscribers. The requests that read and change
/// it are routed in Daemon+Requests.swift.
final class Daemon {
    enum Mode: String { case simulate, hardware }

    let mode: Mode
    private(set) var engine: FoldEngine
    private(set) var descriptors: [CameraDescriptor]
    private(set) var seq = 0
    /// Each topic's value as last sent, encoded once: events and `directions` replies splice it.
    private var published = TopicTable<EncodedJSON>()
    let log: Log
    let metrics: DaemonMetrics
    /// Where events go: the control server, which sends each to its subscribers.
    weak var subscribers: EventPublishing?
    /// The virtual cameras, the default one first (VirtualCameraSlot.swift; `install(cameras:)`
    /// from the configuration: in individual mode the default one only, which no producer feeds).
    private(set) var cameras: [VirtualCameraSlot] = []
    /// The default virtual camera's snapshots (`snapshot` without a camera).
    var snapshots: SnapshotService? { cameras.first?.snapshots }
    /// The part that wired the daemon: what it tells and asks outside the decisions (the one
    /// place they are registered; `DaemonOwner`).
    weak var owner: DaemonOwner?
    /// Which virtual camera streams each physical camera two of them need (CameraSharing.swift).
    private(set) lazy var sharing: CameraSharing = {
        let sharing = CameraSharing(log: log)
        sharing.onChange = { [unowned self] in self.publish(candidates: [.readiness]) }
        return sharing
    }()
    /// Which loopback node carries each configured label, found off the loop.
    let loopbacks = LoopbackDirectory()
    /// Who pins the viewed display (Daemon+Pins.swift).
    var pins = PinBoard()
    /// The sinks the daemon cannot see, as their companions report them (SinkReports.swift).
    var sinks = SinkReports()
    /// A client who may take snapshots is connected: producers keep past frames for them
    /// (`ControlServer` says when this changes).
    var snapshotHistoryWanted = false
    /// Hardware mode: where each rig camera was seen, by V4L2 or through PipeWire.
    private(set) var presence: CameraPresence
    /// Where the persisted pin and screen rotations are kept; nil keeps nothing.
    var stateStore: StateStore?

    static let version = BuildInfo.version

    init(mode: Mode, rig: Rig, metrics: DaemonMetrics, log: Log) {
        self.mode = mode
        self.metrics = metrics
        engine = FoldEngine(rig: rig, plan: VirtualCameraPlan(rig: rig, sink: .available))
        // Hardware mode starts empty: the device layer's first inventory fills it before READY=1.
        // Until a node answers for a camera it is unplugged: nothing is reported unobserved.
        descriptors = mode == .simulate ? CameraDescriptor.simulated(rig) : []
        presence = CameraPresence(cameras: rig.cameras.count)
        self.log = log
        if mode == .hardware {
            for camera in rig.cameras.indices { _ = engine.apply(.cameraUnplugged(camera: camera)) }
        }
        for topic in Topic.allCases { published[topic] = EncodedJSON(currentValue(of: topic)) }
    }

    var rig: Rig { engine.rig }
    var simulates: Bool { mode == .simulate }
    var currentSeq: Int { seq }
    /// The default virtual camera's readiness (the `readiness` topic's top level).
    var readiness: Readiness { readiness(of: cameras.first) }

    /// The running producer's view when there is one. Without one, on hardware in virtual mode
    /// no frame can reach a reader: interrupted, with what to fix. Otherwise (simulation,
    /// individual mode) what the decision alone implies.
    func readiness(of camera: VirtualCameraSlot?) -> Readiness {
        if stopping { return .stopped }
        guard let camera else { return Readiness.derived(from: engine.state) }
        return camera.readiness(engine)
    }

    /// A virtual camera by id; nil when no configured one has it.
    func camera(id: String) -> VirtualCameraSlot? { cameras.first { $0.id == id } }
    private var stopping = false

    /// The daemon is shutting down: subscribers learn that no capture can start any more.
    func markStopping() {
        stopping = true
        publish(candidates: [.readiness])
    }
    /// A camera's producer started or stopped (`CameraService`): its controller takes the
    /// current decision, and readiness is published.
    func attach(_ controller: VirtualCameraController?, to camera: VirtualCameraSlot) {
        publishing {
            camera.controller = controller
            controller?.update(engine: engine)
            publish(candidates: [.readiness])
        }
    }

    /// Individual mode's sensor flips (nil in virtual mode; `attach(individual:)`).
    private(set) var individual: IndividualCameraControl?

    /// Sets the virtual cameras, once at start, before any client: the values gain their ids
    /// without an event.
    func install(cameras: [VirtualCameraSlot]) {
        self.cameras = cameras
        recordShowing()
        for topic in [Topic.virtualCamera, .readiness] { published[topic] = EncodedJSON(currentValue(of: topic)) }
    }

    /// Individual mode started (or, with nil, stopped): its flips follow the decisions from now.
    func attach(individual control: IndividualCameraControl?) {
        individual = control
        control?.update(state: engine.state, rig: rig, descriptors: descriptors)
    }

    func publishedValue(of topic: Topic) -> EncodedJSON {
        published[topic] ?? EncodedJSON(currentValue(of: topic))
    }

    func currentValue(of topic: Topic) -> JSONValue {
        if topic == .virtualCamera || topic == .readiness, !cameras.isEmpty { return camerasValue(topic) }
        let value = TopicValues.value(topic, state: engine.state, rig: rig, plan: engine.plan, devices: descriptors, readiness: readiness)
        guard topic == .devices, let individual else { return value }
        return Self.annotate(value, flipped: individual.flipped)
    }

    /// With one virtual camera, its value as it always was. With several: the default camera's
    /// value plus its `id`, and `cameras`, each one's value with its id (docs/protocol.md,
    /// "Several virtual cameras"). One value per topic keeps a slow client's coalescing
    /// (latest per topic) from dropping a camera's change.
    func camerasValue(_ topic: Topic) -> JSONValue {
        func value(_ camera: VirtualCameraSlot, id: Bool) -> [(String, JSONValue)] {
            let base = topic == .virtualCamera
                ? StateEncoder.virtualCamera(camera.source(engine), rig: rig, plan: camera.plan)
                : readiness(of: camera).json
            guard case var .object(members) = base else { return [] }
            if topic == .readiness, id { members += feedMembers(camera) }
            return id ? members + [("id", .string(camera.id))] : members
        }
        guard cameras.count > 1 else { return .object(value(cameras[0], id: false)) }
        return .object(value(cameras[0], id: true) + [("cameras", .array(cameras.map { .object(value($0, id: true)) }))])
    }

    /// Adds `sensorFlipped` to each camera in the devices value (individual mode): frames from
    /// a flipped sensor are already turned 180°, so a client applies captureRotation − 180.
    static func annotate(_ devices: JSONValue, flipped: [String: Bool]) -> JSONValue {
        guard case let .object(topMembers) = devices, case let .array(cameras)? = devices["cameras"] else { return devices }
        let annotated = JSONValue.array(cameras.map { camera in
            guard case var .object(members) = camera, let id = camera["rigCamera"]?.stringValue else { return camera }
            members.append(("sensorFlipped", .bool(flipped[id] ?? false)))
            return .object(members)
        })
        // The other members (suspectSensors) stay as they are.
        return .object(topMembers.map { $0.0 == "cameras" ? ($0.0, annotated) : $0 })
    }

    /// Applies one input and publishes every topic whose value changed, in one publication
    /// (`publishing`): what the cameras' controllers say while they take the decision goes
    /// out with it, in the same order.
    func apply(_ event: InputEvent) {
        publishing { applyUnpublished(event) }
    }

    /// The device layer's input. A camera's plug or unplug counts only when it changes whether
    /// the camera is seen anywhere: a companion may still see it in PipeWire (CameraPresence).
    func applyDeviceInput(_ event: InputEvent) {
        guard let event = presence.device(event) else { return }
        apply(event)
    }

    /// Tells the engine which rig cameras the companions now see in PipeWire (hardware mode).
    func applyPipeWirePresence() {
        guard mode == .hardware else { return }
        publishing {
            for event in presence.pipeWire(sinks.seen(in: rig)) { applyUnpublished(event) }
        }
    }

    /// When a pending presence change would count or a stuck window complete (monotonic ms):
    /// whoever feeds inputs applies `.advanceTime(milliseconds: 0)` then (`HardwareInputs` arms
    /// a timer).
    private(set) var nextCheckAtMilliseconds: Int?

    private func applyUnpublished(_ event: InputEvent) {
        // Sensor checks count their windows in the monotonic time each input arrives at.
        let update = engine.apply(event, atMilliseconds: Int(MonotonicClock.nanoseconds / 1_000_000))
        for warning in update.warnings { log.warning(warning) }
        for note in update.notes { log.info(note) }
        nextCheckAtMilliseconds = update.nextCheckAtMilliseconds
        metrics.readingsRejected(update.warnings.count)
        guard !update.change.isEmpty else { return }
        if update.change.virtualCameraSource { metrics.switched(DaemonMetrics.cause(of: event)) }
        recordShowing()
        for camera in cameras { camera.controller?.update(engine: engine) }
        individual?.update(state: engine.state, rig: rig, descriptors: descriptors)
        publish(candidates: Self.topics(for: update.change, cameras: cameras.count))
        owner?.daemon(self, changed: update.state, update.change)
    }

    /// Tells each camera's snapshot history what it shows now.
    private func recordShowing() {
        let now = MonotonicClock.nanoseconds
        for camera in cameras {
            let source = camera.source(engine).source
            camera.snapshots?.record(camera: source, rotation: source.map { engine.state.cameras[$0].captureRotation } ?? 0, at: now)
        }
    }

    /// Replaces the cameras present (hardware mode: the device layer's inventory after every
    /// hotplug) and publishes the `devices` topic if it changed.
    func replaceDescriptors(_ newDescriptors: [CameraDescriptor]) {
        publishing {
            descriptors = newDescriptors
            individual?.update(state: engine.state, rig: rig, descriptors: descriptors)
            for camera in cameras { camera.controller?.devicesChanged() }
            publish(candidates: [.devices])
        }
    }

    /// Topics a change may affect; each is compared with what was last sent before publishing.
    static func topics(for change: StateChange, cameras: Int = 1) -> [Topic] {
        var topics: [Topic] = []
        // Direction maps carry each camera's captureRotation and availability too.
        if !change.displays.isEmpty || change.viewedDisplay || !change.cameras.isEmpty { topics.append(.directions) }
        if change.hinges || change.posture || change.viewedDisplay { topics.append(.posture) }
        if !change.cameras.isEmpty || !change.displays.isEmpty || change.sensors { topics.append(.devices) }
        // A camera bound to a display changes with that display, whatever the viewed one does.
        if change.virtualCameraSource || (cameras > 1 && (!change.displays.isEmpty || !change.cameras.isEmpty)) { topics.append(.virtualCamera) }
        if change.virtualCameraSource || !change.cameras.isEmpty || !change.displays.isEmpty { topics.append(.readiness) }
        if change.screens { topics.append(.screens) }
        return topics
    }

    /// The topics asked for during the publication under way (nil: none is).
    private var publication: Set<Topic>?

    /// Runs `body` as one publication: every topic published in it (by the daemon or by a
    /// camera controller it calls) goes out once, afterwards, in `Topic`'s order (directions,
    /// posture, devices, virtualCamera, readiness) — so a subscriber sees an input's
    /// directions before the readiness it implies, and with consecutive `seq`s.
    func publishing(_ body: () -> Void) {
        guard publication == nil else { return body() }
        publication = []
        body()
        let topics = publication ?? []
        publication = nil
        send(Topic.allCases.filter(topics.contains))
    }

    /// Publishes each topic whose value changed (at the end of the publication under way).
    func publish(candidates: [Topic]) {
        guard publication == nil else {
            publication?.formUnion(candidates)
            return
        }
        send(candidates)
    }

    private func send(_ candidates: [Topic]) {
        for topic in candidates {
            let value = currentValue(of: topic)
            guard published[topic]?.value != value else { continue }
            let encoded = EncodedJSON(value)
            published[topic] = encoded
            seq += 1
            subscribers?.publish(topic, seq: seq, data: encoded)
        }
    }

    /// Replaces the rig (SIGHUP reload), carrying over pinning and screen rotations by id.
    func replaceRig(_ newRig: Rig, plan: VirtualCameraPlan, cameraPlans: [String: VirtualCameraPlan] = [:]) {
        publishing { replaceRigUnpublished(newRig, plan: plan, cameraPlans: cameraPlans) }
    }

    private func replaceRigUnpublished(_ newRig: Rig, plan: VirtualCameraPlan, cameraPlans: [String: VirtualCameraPlan]) {
        let old = engine
        engine = FoldEngine(rig: newRig, plan: plan)
        presence = presence.carried(from: old.rig, to: newRig)
        descriptors = mode == .simulate ? CameraDescriptor.simulated(newRig) : []
        if mode == .hardware {
            // What was observed stays true for cameras of both rigs until the new device thread's
            // inventory says otherwise; a camera new to the rig is unplugged until a node answers.
            for (index, camera) in newRig.cameras.enumerated() {
                let before = old.rig.cameraIndex(camera.id).map { old.state.cameras[$0].unavailable }
                if before == nil || before == .unplugged { _ = engine.apply(.cameraUnplugged(camera: index)) }
                if before == .busy { _ = engine.apply(.cameraBusy(camera: index, busy: true)) }
            }
        }
        for (index, display) in old.rig.displays.enumerated() {
            if let newIndex = newRig.displayIndex(display.id), old.state.screenRotations[index] != 0 {
                _ = engine.apply(.screenRotation(display: newIndex, degrees: old.state.screenRotations[index]))
            }
            // An output seen stays as seen until the new device thread reads it again.
            let seen = old.state.displays[index]
            if let connector = display.output?.connector, let newIndex = newRig.displayIndex(output: connector), seen.outputState != .unknown {
                _ = engine.apply(.output(display: newIndex, state: seen.outputState, panelOrientation: seen.mountRotationSource == .kernel ? seen.mountRotation : nil))
            }
        }
        for dropped in pins.keep(where: { newRig.displayIndex($0) != nil }) {
            log.notice("pin: rig \(newRig.id) has no display \(dropped.display); the pin by \(Self.describe(dropped.owner)) ended")
        }
        if let pinned = pins.inForce, let newIndex = newRig.displayIndex(pinned.display) {
            _ = engine.apply(.pinView(display: newIndex))
        }
        saveState()
        // At the reload's time: a sensor check's window starts now, not at the new engine's 0.
        let now = Int(MonotonicClock.nanoseconds / 1_000_000)
        for (index, hinge) in old.rig.hinges.enumerated() {
            if let newIndex = newRig.hingeIndex(hinge.id), old.state.hingeSources[index] != .initial {
                _ = engine.apply(.hingeAngle(hinge: newIndex, degrees: old.state.hingeAngles[index]), atMilliseconds: now)
            }
        }
        if old.state.virtualCamera.source.map({ old.rig.cameras[$0].id }) != engine.state.virtualCamera.source.map({ newRig.cameras[$0].id }) {
            metrics.switched(.reload)
        }
        for camera in cameras {
            camera.replacePlan(cameraPlans[camera.id] ?? VirtualCameraPlan(rig: newRig, follow: camera.spec.follow(in: newRig) ?? .viewed, sink: .available))
        }
        recordShowing()
        for camera in cameras { camera.controller?.update(engine: engine) }
        publish(candidates: Topic.allCases)
        owner?.daemon(self, changed: engine.state, StateChange(from: old.state, to: engine.state))
    }

}

/// Where the daemon's events go (the control server sends each to the topic's subscribers).
protocol EventPublishing: AnyObject {
    func publish(_ topic: Topic, seq: Int, data: EncodedJSON)
    /// Logs a line a client caused, within its user's one log budget (shared by every
    /// connection and every kind of request of that user).
    func logForUser(_ uid: UInt32, _ priority: Log.Priority, _ text: String)
}

extension ControlServer: EventPublishing {}

/// What the daemon tells and asks the part that wired it (DaemonWiring.swift): set once, as
/// `Daemon.owner`, instead of a closure per question.
protocol DaemonOwner: AnyObject {
    /// After every applied input that changed something (the simulator prints these).
    func daemon(_ daemon: Daemon, changed state: FoldState, _ change: StateChange)
    /// The metrics text (`metrics` method): the owner sees every part.
    func metricsText(for daemon: Daemon) -> String
    /// A client moved the simulated hinge itself (the demo sweep stops).
    func daemonHingeTakenOver(_ daemon: Daemon)
    /// `simulate.sweep`: starts or stops the demo sweep; false when there is nothing to sweep.
    func daemon(_ daemon: Daemon, sweep running: Bool) -> Bool
}
