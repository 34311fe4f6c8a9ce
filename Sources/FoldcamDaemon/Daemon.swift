import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// The daemon's state on the event loop: the decision engine, the camera descriptors, the
/// event sequence, and the requests that read and change them.
final class Daemon: RequestHandling {
    enum Mode: String { case simulate, hardware }

    let mode: Mode
    private(set) var engine: FoldEngine
    private(set) var descriptors: [CameraDescriptor]
    private(set) var seq = 0
    /// Each topic's value as last sent, encoded once: events and `directions` replies splice it.
    private var published: [Topic: EncodedJSON] = [:]
    let log: Log
    let metrics: DaemonMetrics
    weak var server: ControlServer?
    /// Snapshots of what the virtual camera shows (nil when it does not run).
    var snapshots: SnapshotService? {
        didSet { recordShowing() }
    }
    /// Called after every applied input that changed something (the simulator prints these).
    var onChange: ((FoldState, StateChange) -> Void)?
    /// The metrics text (`metrics` method; set by the runner, which sees every part).
    var metricsText: (() -> String)?
    /// Called when a client takes over the simulated hinge (stops the demo sweep).
    var onManualHinge: (() -> Void)?
    var sweepControl: ((Bool) -> Bool)?

    static let version = "0.1.0"

    init(mode: Mode, rig: Rig, metrics: DaemonMetrics, log: Log) {
        self.mode = mode
        self.metrics = metrics
        engine = FoldEngine(rig: rig)
        // Hardware mode starts empty: the device layer's first inventory fills it before READY=1.
        descriptors = mode == .simulate ? CameraDescriptor.simulated(rig) : []
        self.log = log
        for topic in Topic.allCases { published[topic] = EncodedJSON(currentValue(of: topic)) }
    }

    var rig: Rig { engine.rig }
    var simulates: Bool { mode == .simulate }
    var currentSeq: Int { seq }
    /// The running producer's view when there is one, else what the decision alone implies.
    var readiness: Readiness {
        if stopping { return .stopped }
        return virtualCamera?.readiness ?? Readiness.derived(from: engine.state)
    }
    private var stopping = false

    /// The daemon is shutting down: subscribers learn that no capture can start any more.
    func markStopping() {
        stopping = true
        publish(candidates: [.readiness])
    }
    /// The virtual camera producer's controller, when the producer runs.
    var virtualCamera: VirtualCameraController? {
        didSet { virtualCamera?.update(engine: engine) }
    }

    /// Individual mode's sensor flips (nil in virtual mode).
    var individual: IndividualCameraControl? {
        didSet { individual?.update(state: engine.state, rig: rig, descriptors: descriptors) }
    }

    func publishedValue(of topic: Topic) -> EncodedJSON {
        published[topic] ?? EncodedJSON(currentValue(of: topic))
    }

    func currentValue(of topic: Topic) -> JSONValue {
        let value = TopicValues.value(topic, state: engine.state, rig: rig, plan: engine.plan, devices: descriptors, readiness: readiness)
        guard topic == .devices, let individual else { return value }
        return Self.annotate(value, flipped: individual.flipped)
    }

    /// Adds `sensorFlipped` to each camera in the devices value (individual mode): frames from
    /// a flipped sensor are already turned 180°, so a client applies captureRotation − 180.
    static func annotate(_ devices: JSONValue, flipped: [String: Bool]) -> JSONValue {
        guard case let .array(cameras)? = devices["cameras"] else { return devices }
        return .object([("cameras", .array(cameras.map { camera in
            guard case var .object(members) = camera, let id = camera["rigCamera"]?.stringValue else { return camera }
            members.append(("sensorFlipped", .bool(flipped[id] ?? false)))
            return .object(members)
        }))])
    }

    /// Applies one input and publishes every topic whose value changed.
    func apply(_ event: InputEvent) {
        let update = engine.apply(event)
        for warning in update.warnings { log.warning(warning) }
        metrics.readingsRejected(update.warnings.count)
        guard !update.change.isEmpty else { return }
        if update.change.virtualCameraSource { metrics.switched(DaemonMetrics.cause(of: event)) }
        recordShowing()
        virtualCamera?.update(engine: engine)
        individual?.update(state: engine.state, rig: rig, descriptors: descriptors)
        publish(candidates: Self.topics(for: update.change))
        onChange?(update.state, update.change)
    }

    /// Tells the snapshot history what the virtual camera shows now.
    private func recordShowing() {
        let source = engine.state.virtualCamera.source
        snapshots?.record(camera: source, rotation: source.map { engine.state.cameras[$0].captureRotation } ?? 0, at: MonotonicClock.nanoseconds)
    }

    /// Replaces the cameras present (hardware mode: the device layer's inventory after every
    /// hotplug) and publishes the `devices` topic if it changed.
    func replaceDescriptors(_ newDescriptors: [CameraDescriptor]) {
        descriptors = newDescriptors
        individual?.update(state: engine.state, rig: rig, descriptors: descriptors)
        virtualCamera?.devicesChanged()
        publish(candidates: [.devices])
    }

    /// Topics a change may affect; each is compared with what was last sent before publishing.
    static func topics(for change: StateChange) -> [Topic] {
        var topics: [Topic] = []
        // Direction maps carry each camera's captureRotation and availability too.
        if !change.displays.isEmpty || change.viewedDisplay || !change.cameras.isEmpty { topics.append(.directions) }
        if change.hinges || change.posture || change.viewedDisplay { topics.append(.posture) }
        if !change.cameras.isEmpty { topics.append(.devices) }
        if change.virtualCameraSource { topics.append(.virtualCamera) }
        if change.virtualCameraSource || !change.cameras.isEmpty || !change.displays.isEmpty { topics.append(.readiness) }
        return topics
    }

    func publish(candidates: [Topic]) {
        for topic in candidates {
            let value = currentValue(of: topic)
            guard published[topic]?.value != value else { continue }
            let encoded = EncodedJSON(value)
            published[topic] = encoded
            seq += 1
            server?.publish(topic, seq: seq, data: encoded)
        }
    }

    /// Replaces the rig (SIGHUP reload), carrying over pinning and screen rotations by id.
    func replaceRig(_ newRig: Rig, plan: VirtualCameraPlan) {
        let old = engine
        engine = FoldEngine(rig: newRig, plan: plan)
        descriptors = mode == .simulate ? CameraDescriptor.simulated(newRig) : []
        for (index, display) in old.rig.displays.enumerated() {
            if let newIndex = newRig.displayIndex(display.id), old.state.screenRotations[index] != 0 {
                _ = engine.apply(.screenRotation(display: newIndex, degrees: old.state.screenRotations[index]))
            }
        }
        if let pinned = old.state.pinnedDisplay, let newIndex = newRig.displayIndex(old.rig.displays[pinned].id) {
            _ = engine.apply(.pinView(display: newIndex))
        }
        for (index, hinge) in old.rig.hinges.enumerated() {
            if let newIndex = newRig.hingeIndex(hinge.id), old.state.hingeSources[index] != .initial {
                _ = engine.apply(.hingeAngle(hinge: newIndex, degrees: old.state.hingeAngles[index]))
            }
        }
        if old.state.virtualCamera.source.map({ old.rig.cameras[$0].id }) != engine.state.virtualCamera.source.map({ newRig.cameras[$0].id }) {
            metrics.switched(.reload)
        }
        recordShowing()
        virtualCamera?.update(engine: engine)
        publish(candidates: Topic.allCases)
        onChange?(engine.state, StateChange(from: old.state, to: engine.state))
    }

    // MARK: Requests

    func clientLeft(sessionID: Int) {
        snapshots?.clientLeft(sessionID: sessionID)
    }

    func abandonPendingRequests() -> [(sessionID: Int, requestID: JSONValue)] {
        snapshots?.abandonAll() ?? []
    }

    /// Handles a request the server has authorized (see `Method.access`).
    func handle(_ method: Method, _ request: WireProtocol.Request, from session: ClientSession) -> Result<Answer, WireProtocol.Failure>? {
        let params = Params(request: request)
        if method == .snapshot {
            guard let snapshots else {
                return .failure(WireProtocol.Failure(id: request.id, code: .unavailable, message: "snapshots need the virtual camera, which is not running"))
            }
            do {
                try snapshots.start(request, params: params, sessionID: session.id, rig: rig, plan: engine.plan, now: MonotonicClock.nanoseconds)
                return nil
            } catch {
                return .failure(error)
            }
        }
        do {
            return .success(try route(method, request, params))
        } catch {
            return .failure(error)
        }
    }

    private func route(_ method: Method, _ request: WireProtocol.Request, _ params: Params) throws(WireProtocol.Failure) -> Answer {
        switch method {
        case .hello:
            return .value(.object([
                ("protocol", .int(WireProtocol.version)), ("daemon", .string(Self.version)), ("rig", .string(rig.id)),
                ("mode", .string(mode.rawValue)), ("topics", .array(Topic.allCases.map { .string($0.rawValue) })),
                ("methods", .array(Method.available(simulate: simulates).map { .string($0.rawValue) })),
            ]))
        case .devices:
            return .value(currentValue(of: .devices))
        case .metrics:
            return .value(.object([("text", .string(metricsText?() ?? ""))]))
        case .state:
            guard case var .object(members) = StateEncoder.encode(engine.state, rig: rig, plan: engine.plan) else { return .value(.null) }
            members.insert(("rig", .string(rig.id)), at: 0)
            members.append(("readiness", readiness.json))
            members.append(("seq", .int(seq)))
            return .value(.object(members))
        case .directions:
            if let displayID = try params.optionalString("display") {
                guard let display = rig.displayIndex(displayID) else {
                    let ids = rig.displays.map(\.id)
                    throw params.failure("params.display: unknown display \(ClientText.quoted(displayID))\(NearestName.hint(for: displayID, among: ids)) (displays: \(ids.joined(separator: ", ")))")
                }
                guard case var .object(members) = StateEncoder.display(display, engine.state, rig: rig, includeTheta: false) else { return .value(.null) }
                members.insert(("display", .string(displayID)), at: 0)
                members.insert(("viewed", .bool(engine.state.viewedDisplay == display)), at: 1)
                return .value(.object(members))
            }
            // Kept current after every change (see publish): no need to encode it again.
            return .encoded(publishedValue(of: .directions))
        case .pinView:
            apply(.pinView(display: try params.id("display", in: rig.displays.map(\.id), kind: "display")))
            return .encoded(publishedValue(of: .posture))
        case .unpinView:
            apply(.pinView(display: nil))
            return .encoded(publishedValue(of: .posture))
        case .setScreenRotation:
            let display = try params.id("display", in: rig.displays.map(\.id), kind: "display")
            let degrees = try params.number("rotation")
            guard [0, 90, 180, 270].contains(degrees) else { throw params.failure("params.rotation: \(degrees) is not one of 0, 90, 180, 270") }
            apply(.screenRotation(display: display, degrees: Int(degrees)))
            return .value(StateEncoder.display(display, engine.state, rig: rig, includeTheta: false))
        case .subscribe, .unsubscribe, .snapshot:
            // The server answers subscriptions; snapshots are deferred (see handle).
            throw WireProtocol.Failure(id: request.id, code: .internalError, message: "\(method.rawValue) is not routed here")
        default:
            return try simulate(method, request, params)
        }
    }

    private func simulate(_ method: Method, _ request: WireProtocol.Request, _ params: Params) throws(WireProtocol.Failure) -> Answer {
        guard simulates else {
            throw WireProtocol.Failure(id: request.id, code: .unavailable, message: "\(method.rawValue) works only when the daemon runs with --simulate")
        }
        let cameraIDs = rig.cameras.map(\.id)
        switch method {
        case .simulateHinge:
            let hinge = try params.id("hinge", in: rig.hinges.map(\.id), kind: "hinge")
            let angle = try params.number("angle")
            guard rig.hinges[hinge].contains(angle) else {
                throw params.failure("params.angle: \(angle) is outside hinge \(rig.hinges[hinge].id)'s range [\(rig.hinges[hinge].minimum), \(rig.hinges[hinge].maximum)]")
            }
            onManualHinge?()
            apply(.hingeAngle(hinge: hinge, degrees: angle))
        case .simulateSwitch:
            let name = try params.string("switch")
            let state = try params.string("state")
            let present = [("lid", rig.switches.lid != nil), ("tabletMode", rig.switches.tabletMode != nil)].filter(\.1).map(\.0)
            if ["lid", "tabletMode"].contains(name) && !present.contains(name) {
                throw params.failure("params.switch: rig \(rig.id) has no \(name) switch (\(present.isEmpty ? "it has no switches" : "its switches: " + present.joined(separator: ", ")))")
            }
            switch (name, state) {
            case ("lid", "closed"), ("lid", "open"): apply(.lidSwitch(closed: state == "closed"))
            case ("tabletMode", "on"), ("tabletMode", "off"): apply(.tabletModeSwitch(on: state == "on"))
            default: throw params.failure("params: expected switch \"lid\" with state open|closed, or \"tabletMode\" with state on|off")
            }
        case .simulateGravity:
            apply(.gravity(try params.vector("vector")))
        case .simulateAccelerometer:
            let sensor = try params.id("accelerometer", in: rig.accelerometers.map(\.id), kind: "accelerometer")
            apply(.accelerometer(sensor: sensor, reading: try params.vector("reading")))
        case .simulatePlug:
            apply(.cameraPlugged(camera: try params.id("camera", in: cameraIDs, kind: "camera")))
        case .simulateUnplug:
            apply(.cameraUnplugged(camera: try params.id("camera", in: cameraIDs, kind: "camera")))
        case .simulateBusy:
            apply(.cameraBusy(camera: try params.id("camera", in: cameraIDs, kind: "camera"), busy: try params.bool("busy")))
        case .simulateSweep:
            let running = try params.bool("running")
            guard let sweepControl, sweepControl(running) else { throw params.failure("this rig has no hinge to sweep") }
        default:
            throw WireProtocol.Failure(id: request.id, code: .internalError, message: "\(method.rawValue) is not a simulate method")
        }
        return .encoded(publishedValue(of: .posture))
    }
}
