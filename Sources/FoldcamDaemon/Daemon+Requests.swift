import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// Requests, routed by `Method` once the server has authorized them: reads answer from the
/// published values, changes become input events, snapshots go to their worker.
extension Daemon: RequestHandling {
    func clientLeft(sessionID: Int) {
        for camera in cameras { camera.snapshots?.clientLeft(sessionID: sessionID) }
        releasePins(of: sessionID)
        if let ended = sinks.sessionLeft(sessionID) {
            let claims = ended.sinks.map(\.node) + ended.cameras.map { "camera \($0.camera) in \($0.node)" }
            subscribers?.logForUser(ended.reporter.uid, .notice, "sinks: \(Self.describe(ended.reporter)) disconnected; the sinks it reported (\(claims.joined(separator: ", "))) are no longer claimed")
            applyPipeWirePresence()
        }
    }

    func snapshotClients(present: Bool) {
        snapshotHistoryWanted = present
        log.debug(present ? "a client who may take snapshots is connected: past frames are kept for snapshots"
            : "no client who may take snapshots is connected: only the frame on screen is kept")
        for camera in cameras { camera.controller?.producer.keepSnapshotHistory(present) }
    }

    func abandonPendingRequests() -> [(sessionID: Int, requestID: JSONValue)] {
        cameras.flatMap { $0.snapshots?.abandonAll() ?? [] }
    }

    /// Handles a request the server has authorized (see `Method.access`), by its route.
    func handle(_ route: Method.DaemonRequest, _ method: Method, _ request: WireProtocol.Request, from session: ClientSession) -> Result<Answer, WireProtocol.Failure>? {
        let params = Params(request: request)
        do {
            switch route {
            case let .read(read):
                let answer = try self.read(read, params)
                // Who holds a pin (uid, pid, command) is for control-class peers only.
                if case .state = read, !session.seesPinOwners { return .success(Self.hidingPinOwners(answer)) }
                return .success(answer)
            case let .change(change): return .success(try self.change(change, params, session: session))
            case .snapshot: return try snapshot(request, params, session: session).map { .success($0) }
            case .reportSinks: return .success(try reportSinks(params, session: session))
            case let .simulation(simulation): return .success(try simulate(simulation, method, request, params))
            }
        } catch {
            return .failure(error)
        }
    }

    /// `reportSinks`: replaces this connection's report; answers with every sink now claimed.
    private func reportSinks(_ params: Params, session: ClientSession) throws(WireProtocol.Failure) -> Answer {
        let reported = try SinkReports.parse(params, virtualCameras: cameras.map(\.id))
        let seen = try SinkReports.parseCameras(params, rig: rig)
        let reporter = Self.owner(of: session)
        if sinks.report(reported, cameras: seen, reporter: reporter, sessionID: session.id) {
            let summary = reported.map { "\($0.node) (\($0.virtualCamera)) \($0.state.rawValue)" }.joined(separator: ", ")
            let cameras = seen.isEmpty ? "" : "; sees in PipeWire " + seen.map { "camera \($0.camera) (\(ClientText.quoted($0.node)))" }.joined(separator: ", ")
            // Sink reports are frames-class, not control: their lines keep to the user's budget.
            subscribers?.logForUser(reporter.uid, .notice, "sinks: \(Self.describe(reporter)) reports \(reported.isEmpty ? "no sink" : summary)\(cameras)")
            applyPipeWirePresence()
        }
        return .value(.object([("sinks", sinks.json), ("camerasInPipeWire", sinks.camerasJSON)]))
    }

    /// Starts a snapshot; nil: the worker answers later.
    private func snapshot(_ request: WireProtocol.Request, _ params: Params, session: ClientSession) throws(WireProtocol.Failure) -> Answer? {
        let camera = try snapshotCamera(params)
        // Drawn frames only in simulation: on hardware a snapshot is a frame a camera gave.
        guard let camera, let snapshots = camera.snapshots, simulates || snapshots.producer != nil else {
            var message = "snapshots need the virtual camera, which is not running (no v4l2loopback device, or individual camera mode; see the daemon's journal)"
            if let camera, let hint = sinks.snapshotHint(virtualCamera: camera.id) { message += "; " + hint }
            throw WireProtocol.Failure(id: request.id, code: .unavailable, message: message)
        }
        try snapshots.start(request, params: params, sessionID: session.id, rig: rig, plan: camera.plan, now: MonotonicClock.nanoseconds)
        return nil
    }

    /// The camera a snapshot is of: `params.camera` (or `virtualCamera`), else the default one.
    private func snapshotCamera(_ params: Params) throws(WireProtocol.Failure) -> VirtualCameraSlot? {
        let key = params.has("camera") ? "camera" : "virtualCamera"
        guard let id = try params.optionalString(key) else { return cameras.first }
        if let camera = camera(id: id) { return camera }
        let ids = cameras.map(\.id)
        throw params.failure("params.\(key): no virtual camera \(ClientText.quoted(id))\(NearestName.hint(for: id, among: ids)) (virtual cameras: \(ids.joined(separator: ", ")))")
    }

    private func read(_ read: Method.Read, _ params: Params) throws(WireProtocol.Failure) -> Answer {
        switch read {
        case .hello:
            return .value(.object([
                ("protocol", .int(WireProtocol.version)), ("daemon", .string(Self.version)), ("rig", .string(rig.id)),
                ("mode", .string(mode.rawValue)), ("topics", .array(Topic.allCases.map { .string($0.rawValue) })),
                ("methods", .array(Method.available(simulate: simulates).map { .string($0.rawValue) })),
            ]))
        case .devices:
            return .value(currentValue(of: .devices))
        case .metrics:
            return .value(.object([("text", .string(owner?.metricsText(for: self) ?? ""))]))
        case .state:
            guard case var .object(members) = StateEncoder.encode(engine.state, rig: rig, plan: engine.plan) else { return .value(.null) }
            members.insert(("rig", .string(rig.id)), at: 0)
            // Each configured virtual camera's decision, as the virtualCamera topic has it.
            if let index = members.firstIndex(where: { $0.0 == "virtualCamera" }) { members[index].1 = currentValue(of: .virtualCamera) }
            members.append(("readiness", currentValue(of: .readiness)))
            members.append(("pins", pinsJSON))
            members.append(("sinks", sinks.json))
            members.append(("camerasInPipeWire", sinks.camerasJSON))
            members.append(("seq", .int(seq)))
            return .value(.object(members))
        case .directions:
            let byOutput = try displayShowing(params)
            if let displayID = try params.optionalString("display") ?? byOutput.map(displayID) {
                guard let display = rig.displayIndex(displayID) else {
                    let ids = rig.displays.map(\.id)
                    throw params.failure("params.display: unknown display \(ClientText.quoted(displayID))\(NearestName.hint(for: displayID, among: ids)) (displays: \(ids.joined(separator: ", ")))")
                }
                if let byOutput, byOutput != display {
                    throw params.failure("params.output: \(ClientText.quoted(try params.string("output"))) shows display \(ClientText.quoted(rig.displays[byOutput].id)), not \(ClientText.quoted(displayID)) (give one of display, output)")
                }
                guard case var .object(members) = StateEncoder.display(display, engine.state, rig: rig, includeTheta: false) else { return .value(.null) }
                members.insert(("display", .string(displayID)), at: 0)
                members.insert(("viewed", .bool(engine.state.viewedDisplay == display)), at: 1)
                return .value(.object(members))
            }
            // Kept current after every change (see publish): no need to encode it again.
            return .encoded(publishedValue(of: .directions))
        }
    }

    func displayShowing(_ params: Params) throws(WireProtocol.Failure) -> Int? {
        guard let name = try params.optionalString("output") else { return nil }
        if let display = rig.displayIndex(output: name) { return display }
        let outputs = rig.displays.compactMap { $0.output?.connector }
        guard !outputs.isEmpty else {
            throw params.failure("params.output: rig \(ClientText.quoted(rig.id)) names no outputs (give its displays an \"output\", docs/rig-format.md#outputs, or ask by display: \(rig.displays.map(\.id).joined(separator: ", ")))")
        }
        throw params.failure("params.output: no display of rig \(ClientText.quoted(rig.id)) is on output \(ClientText.quoted(name))\(NearestName.hint(for: name, among: outputs)) (outputs: \(outputs.joined(separator: ", ")))")
    }

    func displayID(_ index: Int) -> String { rig.displays[index].id }

    /// A change answers with the posture it leads to.
    private func change(_ change: Method.Change, _ params: Params, session: ClientSession) throws(WireProtocol.Failure) -> Answer {
        switch change {
        case .pinView:
            try pinView(params, session: session)
        case .unpinView:
            try unpinView(params, session: session)
        case .setScreenRotation:
            let display = try params.id("display", in: rig.displays.map(\.id), kind: "display")
            let degrees = try params.number("rotation")
            guard [0, 90, 180, 270].contains(degrees) else { throw params.failure("params.rotation: \(degrees) is not one of 0, 90, 180, 270") }
            apply(.screenRotation(display: display, degrees: Int(degrees)))
            saveState()
            return .value(StateEncoder.display(display, engine.state, rig: rig, includeTheta: false))
        }
        return .encoded(publishedValue(of: .posture))
    }

    private func simulate(_ simulation: Method.Simulation, _ method: Method, _ request: WireProtocol.Request, _ params: Params) throws(WireProtocol.Failure) -> Answer {
        guard simulates else {
            throw WireProtocol.Failure(id: request.id, code: .unavailable, message: "\(method.rawValue) works only when the daemon runs with --simulate")
        }
        let cameraIDs = rig.cameras.map(\.id)
        switch simulation {
        case .hinge:
            let hinge = try params.id("hinge", in: rig.hinges.map(\.id), kind: "hinge")
            let angle = try params.number("angle")
            guard rig.hinges[hinge].contains(angle) else {
                throw params.failure("params.angle: \(ClientText.number(angle)) is outside hinge \(rig.hinges[hinge].id)'s range [\(ClientText.number(rig.hinges[hinge].minimum)), \(ClientText.number(rig.hinges[hinge].maximum))]")
            }
            owner?.daemonHingeTakenOver(self)
            apply(.hingeAngle(hinge: hinge, degrees: angle))
        case .switch:
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
        case .gravity:
            apply(.gravity(try params.vector("vector")))
        case .accelerometer:
            let sensor = try params.id("accelerometer", in: rig.accelerometers.map(\.id), kind: "accelerometer")
            apply(.accelerometer(sensor: sensor, reading: try params.vector("reading")))
        case .plug:
            apply(.cameraPlugged(camera: try params.id("camera", in: cameraIDs, kind: "camera")))
        case .unplug:
            apply(.cameraUnplugged(camera: try params.id("camera", in: cameraIDs, kind: "camera")))
        case .busy:
            apply(.cameraBusy(camera: try params.id("camera", in: cameraIDs, kind: "camera"), busy: try params.bool("busy")))
        case .sweep:
            let running = try params.bool("running")
            guard owner?.daemon(self, sweep: running) == true else { throw params.failure("this rig has no hinge to sweep") }
        }
        return .encoded(publishedValue(of: .posture))
    }
}
