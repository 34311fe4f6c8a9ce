import FoldcamClient
import FoldcamCore
import FoldcamIO
import FoldcamPipeWire

/// The companion's loop: daemon decisions and PipeWire's events in, PipeWireBridge's actions
/// out. Nodes are published once the daemon has said each virtual camera's mode, and stay
/// listed while the daemon restarts (the bridge shows "camera unavailable" meanwhile).
struct Companion {
    let rig: Rig
    let socketPath: String?
    let timeouts: InputTimeouts
    let log: Log

    func run() async throws(CompanionError) {
        let (stream, continuation) = AsyncStream.makeStream(of: CompanionEvent.self, bufferingPolicy: .unbounded)
        let events = CompanionEvents(continuation)
        let connection = try PipeWireConnection(events: events)
        log.notice("foldcam-pipewire: connected to PipeWire; rig \(rig.id), cameras matched to PipeWire nodes: \(rig.cameras.filter { $0.pipewire != nil }.map(\.id).joined(separator: ", "))")
        let feed = Task {
            for await update in FoldcamClient.updates(topics: [.virtualCamera, .directions], socketPath: socketPath) {
                continuation.yield(.daemon(update))
            }
        }
        defer { feed.cancel() }
        var state = LoopState(rig: rig, timeouts: timeouts)
        for await event in stream {
            for input in try await state.inputs(for: event, connection: connection, events: events, log: log) {
                for action in state.bridge.handle(input) { state.perform(action, serverVersion: connection.serverVersion, events: events, log: log) }
            }
            await state.reportSinks(log: log)
        }
    }
}

/// How long a camera node's stream may keep the companion waiting before it counts as one that
/// cannot feed (`--link-timeout`, `--stall-timeout`).
struct InputTimeouts: Sendable {
    /// Seconds to agree a format, then again to deliver the first frame. Room for a libcamera
    /// camera under a slow machine: in the e2e tier's emulated guest (qemu TCG), PipeWire
    /// 1.4.2's vimc node took 14 s for a reader's first ten frames.
    var link = 20.0
    /// Seconds between frames after the first: a camera that stays linked but stops sending
    /// drives the node no more, and its reader would wait for ever.
    var stall = 3.0
}

/// The loop's state: the topics' latest values, the registry's nodes, the published nodes.
struct LoopState {
    var bridge: PipeWireBridge
    var virtualCamera: JSONValue?
    var directions: JSONValue?
    var registry: [UInt32: CameraNode] = [:]
    var published: [String: PublishedNode] = [:]
    var refused: Set<String> = []
    var daemonUp = false
    /// The connection that carries the nodes' report (`reportSinks`): the report lasts while it
    /// is open, so foldcamd claims no node once the companion is gone.
    var reporter: FoldcamConnection?
    /// The `sinks` and `cameras` last accepted on `reporter`.
    var reported: JSONValue?
    /// Set while the daemon runs another rig than ours: its decisions name cameras our rig's
    /// matches do not describe, so none is used.
    var wrongRig: String?
    let rig: Rig
    let timeouts: InputTimeouts

    init(rig: Rig, timeouts: InputTimeouts) {
        self.rig = rig
        self.timeouts = timeouts
        bridge = PipeWireBridge(rig: rig)
    }

    mutating func inputs(for event: CompanionEvent, connection: PipeWireConnection, events: CompanionEvents, log: Log) async throws(CompanionError) -> [PipeWireBridge.Input] {
        switch event {
        case let .daemon(.connected(path)):
            log.notice("foldcam-pipewire: connected to foldcamd at \(path)")
            daemonUp = true
            wrongRig = nil
            reporter?.close()
            reporter = try? FoldcamConnection(path: path)
            reported = nil
            if let running = await Self.daemonRig(path: path), running != rig.id {
                let reason = "foldcamd runs rig \(ClientText.quoted(running)), but this companion loaded rig \(ClientText.quoted(rig.id)) (give the same rig: --rig, or foldcamd's --config)"
                log.error("foldcam-pipewire: \(reason)")
                wrongRig = reason
                return [.daemonRefused(reason)]
            }
            return []
        case let .daemon(.disconnected(error, _)):
            if daemonUp || virtualCamera == nil && published.isEmpty { log.warning("foldcam-pipewire: foldcamd: \(error); retrying") }
            daemonUp = false
            reporter?.close()
            reporter = nil
            virtualCamera = nil
            directions = nil
            return [.daemonGone]
        case let .daemon(.event(event)):
            switch event.topic {
            case .virtualCamera?: virtualCamera = event.data
            case .directions?: directions = event.data
            default: return []
            }
            guard wrongRig == nil, let value = virtualCamera, let view = DaemonView(virtualCamera: value, directions: directions) else { return [] }
            publish(view, connection: connection, events: events, log: log)
            return [.daemon(view)]
        case let .nodeAdded(node):
            registry[node.id] = node
            return [.cameraNodes(registry.keys.sorted().compactMap { registry[$0] })]
        case let .nodeRemoved(id):
            guard registry.removeValue(forKey: id) != nil else { return [] }
            return [.cameraNodes(registry.keys.sorted().compactMap { registry[$0] })]
        case let .streaming(id, on):
            log.info("foldcam-pipewire: node \(FoldcamNode.name(virtualCamera: id)) \(on ? "streaming (a consumer reads it)" : "not streaming")")
            return [.output(virtualCamera: id, streaming: on)]
        case let .inputDelivered(id, target):
            if bridge.isRetrying(target) {
                let name = (registry.values.first { $0.target == target }?.name).map { "\($0) (object.serial \(target))" } ?? target
                log.notice("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)): camera node \(name), tried again, feeds it")
            }
            return [.inputDelivered(node: target)]
        case let .inputFailed(id, target, reason, stalled):
            guard let node = registry.values.first(where: { $0.target == target }) else {
                // The node left the registry meanwhile: its removal says what matters.
                log.info("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)): the stream to camera node \(target), gone meanwhile, ended: \(reason)")
                return []
            }
            if bridge.isRetrying(target) {
                // Warned at the first failure; a retry that fails again is a step of the backoff.
                log.info("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)): camera node \(node.name ?? target) (object.serial \(target)), tried again, still cannot feed it: \(reason)")
            } else {
                log.warning("foldcam-pipewire: \(Self.inputFailure(node: node, reason: reason, stalled: stalled, virtualCamera: id, mode: published[id]?.mode, rig: rig))")
            }
            return [.inputFailed(virtualCamera: id, node: target, reason: reason)]
        case let .retryDue(target, attempt):
            return [.retryDue(node: target, attempt: attempt)]
        case let .failed(message):
            throw .pipewire("PipeWire connection failed: \(message)")
        }
    }

    /// The warning for a camera node that cannot feed: which node, why, what to do.
    static func inputFailure(node: CameraNode, reason: String, stalled: Bool, virtualCamera id: String, mode: CameraMode?, rig: Rig) -> String {
        let name = node.name.map { "\($0) (object.serial \(node.target ?? "?"))" } ?? (node.target ?? "?")
        let camera = rig.cameras.first { $0.pipewire?.matches(node.properties) ?? false }?.id
        let size = mode.map { " at \($0.width)x\($0.height)" } ?? ""
        let check = stalled
            ? "Check what else uses the camera (pw-top) and the kernel's log, or raise --stall-timeout for a camera that pauses"
            : "Check with pw-dump that its media.type is Video and that it offers YUY2, RGB or BGR\(size)"
        return "\(FoldcamNode.name(virtualCamera: id)): camera node \(name)\(camera.map { " of rig camera \(ClientText.quoted($0))" } ?? "") cannot feed it: "
            + "\(reason). While foldcamd still decides on its camera, it is tried again after \(PipeWireBridge.retryDelays.map(String.init).joined(separator: ", ")) s, then every \(PipeWireBridge.retryDelays.last!) s; "
            + "at once when it is listed anew or foldcamd decides on its camera again. "
            + "\(check), or give the rig camera a \"pipewire\" match of a node that feeds (docs/pipewire.md)"
    }

    /// Tells foldcamd what each published node does and which rig cameras this session's
    /// PipeWire has, when that changed. A refusal (the user
    /// may not receive the camera's frames: docs/security.md) is logged once per connection.
    mutating func reportSinks(log: Log) async {
        guard let reporter, wrongRig == nil else { return }
        let report: JSONValue = .object([("sinks", bridge.sinkReport(published: published.keys.sorted())), ("cameras", bridge.cameraReport)])
        guard report != reported else { return }
        reported = report
        do {
            _ = try await reporter.request(method: "reportSinks", params: report)
        } catch {
            log.warning("foldcam-pipewire: foldcamd did not take the report of this session's nodes, so its status will not show them: \(error)")
            reporter.close()
            self.reporter = nil
        }
    }

    /// The rig id `hello` names (nil when it cannot be asked: the feed then says why).
    static func daemonRig(path: String) async -> String? {
        guard let connection = try? FoldcamConnection(path: path) else { return nil }
        defer { connection.close() }
        return (try? await connection.request(method: "hello"))?["rig"]?.stringValue
    }

    /// A node per virtual camera at its mode; a changed mode republishes (consumers reconnect).
    mutating func publish(_ view: DaemonView, connection: PipeWireConnection, events: CompanionEvents, log: Log) {
        for camera in view.virtualCameras {
            guard let mode = camera.mode, published[camera.id]?.mode != mode else { continue }
            published[camera.id] = nil
            do {
                published[camera.id] = try PublishedNode(virtualCamera: camera.id, mode: mode, on: connection, events: events)
                log.notice("foldcam-pipewire: published \(FoldcamNode.name(virtualCamera: camera.id)) (\(mode))")
            } catch {
                if refused.insert("\(camera.id) \(mode)").inserted { log.error("foldcam-pipewire: \(error)") }
            }
        }
    }

    func perform(_ action: PipeWireBridge.Action, serverVersion: String, events: CompanionEvents, log: Log) {
        switch action {
        case let .connectInput(id, target, transform):
            let camera = registry.values.first { $0.target == target }
            let swap = camera.map { LibcameraColourOrder.swapsRedAndBlue($0, pipewireVersion: serverVersion) } ?? false
            let result = published[id]?.connectInput(target, transform: transform, swapRedAndBlue: swap, timeouts: timeouts) ?? 0
            let name = (camera?.name).map { "\($0) (object.serial \(target))" } ?? target
            if result < 0 { log.error("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)): cannot consume \(name) (error \(-result))") }
            let swapped = swap ? "; its RGB and BGR taken the other way round (a libcamera node of PipeWire \(serverVersion), before 1.1.81)" : ""
            log.info("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)) <- \(name), transform \(transform) from its first frame\(swapped)")
        case let .disconnectInput(id):
            published[id]?.disconnectInput()
            let counts = published[id]?.counters ?? (forwarded: 0, converted: 0, placeholders: 0, switches: 0)
            log.info("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)): camera stream closed (no consumer); so far \(counts.forwarded) camera frames (\(counts.converted) converted from RGB or BGR), \(counts.placeholders) placeholder frames, \(counts.switches) switches")
        case let .showUnavailable(id, reason):
            published[id]?.disconnectInput()
            log.notice("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)) shows \"camera unavailable\": \(reason)")
        case let .setTransform(id, transform):
            published[id]?.setTransform(transform)
            log.info("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)) transform \(transform)")
        case let .retryLater(id, target, seconds, attempt, newDelay):
            if newDelay {
                let name = (registry.values.first { $0.target == target }?.name).map { "\($0) (object.serial \(target))" } ?? target
                log.info("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)): trying camera node \(name) again in \(seconds) s\(seconds == PipeWireBridge.retryDelays.last ? ", and every \(seconds) s while it fails" : "")")
            }
            Task { [continuation = events.continuation] in
                try? await Task.sleep(for: .seconds(seconds))
                continuation.yield(.retryDue(node: target, attempt: attempt))
            }
        }
    }
}
