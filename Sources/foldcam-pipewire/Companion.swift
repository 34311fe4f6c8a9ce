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
        var state = LoopState(rig: rig)
        for await event in stream {
            for input in try await state.inputs(for: event, connection: connection, events: events, log: log) {
                for action in state.bridge.handle(input) { state.perform(action, log: log) }
            }
            await state.reportSinks(log: log)
        }
    }
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
    /// The `sinks` last accepted on `reporter`.
    var reported: JSONValue?
    /// Set while the daemon runs another rig than ours: its decisions name cameras our rig's
    /// matches do not describe, so none is used.
    var wrongRig: String?
    let rig: Rig

    init(rig: Rig) {
        self.rig = rig
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
        case let .failed(message):
            throw .pipewire("PipeWire connection failed: \(message)")
        }
    }

    /// Tells foldcamd what each published node does, when that changed. A refusal (the user
    /// may not receive the camera's frames: docs/security.md) is logged once per connection.
    mutating func reportSinks(log: Log) async {
        guard let reporter, wrongRig == nil else { return }
        let sinks = bridge.sinkReport(published: published.keys.sorted())
        guard sinks != reported else { return }
        reported = sinks
        do {
            _ = try await reporter.request(method: "reportSinks", params: .object([("sinks", sinks)]))
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

    func perform(_ action: PipeWireBridge.Action, log: Log) {
        switch action {
        case let .connectInput(id, name, transform):
            let result = published[id]?.connectInput(name, transform: transform) ?? 0
            if result < 0 { log.error("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)): cannot consume \(name) (error \(-result))") }
            log.info("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)) <- \(name), transform \(transform) from its first frame")
        case let .disconnectInput(id):
            published[id]?.disconnectInput()
            let counts = published[id]?.counters ?? (forwarded: 0, placeholders: 0, switches: 0)
            log.info("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)): camera stream closed (no consumer); so far \(counts.forwarded) camera frames, \(counts.placeholders) placeholder frames, \(counts.switches) switches")
        case let .showUnavailable(id, reason):
            published[id]?.disconnectInput()
            log.notice("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)) shows \"camera unavailable\": \(reason)")
        case let .setTransform(id, transform):
            published[id]?.setTransform(transform)
            log.info("foldcam-pipewire: \(FoldcamNode.name(virtualCamera: id)) transform \(transform)")
        }
    }
}
