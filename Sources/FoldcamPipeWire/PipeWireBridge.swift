import FoldcamCore

/// What each foldcam PipeWire node shows: the decision of the companion, pure. Inputs are the
/// daemon's decisions (`DaemonView`, or that it is gone), whether each node's output stream is
/// streaming (someone consumes it), and the camera nodes PipeWire's registry lists; the shell
/// performs the returned actions. A camera stream is open only while its foldcam node streams
/// (on demand, as the loopback path); the node's format never changes, so switching a source is
/// connecting another input, never a renegotiation with the consumer.
///
/// A transform belongs to the input it was decided with: a switch carries the new camera's
/// transform, and the node puts it on buffers from that camera's first frame (the old camera's
/// frames keep the old one until then, make before break). The "camera unavailable" frame is
/// drawn upright and carries none.
public struct PipeWireBridge: Sendable {
    public enum Input: Sendable, Equatable {
        case daemon(DaemonView)
        /// The daemon's socket closed or could not be reached: its decisions are unknown.
        case daemonGone
        /// A daemon answers but its decisions cannot be used (it runs another rig): why.
        case daemonRefused(String)
        case output(virtualCamera: String, streaming: Bool)
        /// Every Video/Source node the registry lists now (foldcam's own included).
        case cameraNodes([CameraNode])
    }

    public enum Action: Sendable, Equatable {
        /// Consume this camera node, its frames carrying `transform` (the current input feeds,
        /// with its own transform, until the new one delivers).
        case connectInput(virtualCamera: String, node: String, transform: VideoTransform)
        /// Nobody consumes the node: close its camera stream.
        case disconnectInput(virtualCamera: String)
        /// Someone consumes it but no camera can feed it: close any input, show the
        /// "camera unavailable" frame.
        case showUnavailable(virtualCamera: String, reason: String)
        /// The camera last connected stays, but its frames turn otherwise from now on (the
        /// same camera, a new capture rotation).
        case setTransform(virtualCamera: String, VideoTransform)
    }

    /// What a node shows.
    public enum Feed: Sendable, Equatable {
        case idle
        case unavailable(String)
        case node(String)
    }

    private let matches: [String: PipeWireMatch]
    /// The rig mirrors the virtual camera (`virtualCamera.mirror`), as the loopback does.
    private let mirrored: Bool
    private var daemon: DaemonView?
    private var refusal: String?
    private var streaming: [String: Bool] = [:]
    private var nodes: [CameraNode] = []
    private var feeds: [String: Feed] = [:]
    private var transforms: [String: VideoTransform] = [:]

    /// `rig`'s cameras with a `pipewire` match are the ones this bridge can feed from.
    public init(rig: Rig) {
        var matches: [String: PipeWireMatch] = [:]
        for camera in rig.cameras { if let match = camera.pipewire { matches[camera.id] = match } }
        self.matches = matches
        mirrored = rig.virtualCamera.mirror
    }

    /// What node `id` shows now.
    public func feed(_ id: String) -> Feed { feeds[id] ?? .idle }

    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case let .daemon(view): (daemon, refusal) = (view, nil)
        case .daemonGone: (daemon, refusal) = (nil, nil)
        case let .daemonRefused(reason): (daemon, refusal) = (nil, reason)
        case let .output(id, on): streaming[id] = on
        case let .cameraNodes(list): nodes = list.filter { !$0.isFoldcam }
        }
        var actions: [Action] = []
        for id in streaming.keys.sorted() { actions += update(id) }
        return actions
    }

    private mutating func update(_ id: String) -> [Action] {
        let (wanted, transform) = decide(id)
        if feeds[id, default: .idle] == wanted {
            guard let transform, transforms[id] != transform else { return [] }
            transforms[id] = transform
            return [.setTransform(virtualCamera: id, transform)]
        }
        feeds[id] = wanted
        transforms[id] = transform
        switch wanted {
        case .idle: return [.disconnectInput(virtualCamera: id)]
        case let .unavailable(reason): return [.showUnavailable(virtualCamera: id, reason: reason)]
        case let .node(name): return [.connectInput(virtualCamera: id, node: name, transform: transform ?? .none)]
        }
    }

    /// The feed `id` should have now, and the transform of its source when it has one.
    private func decide(_ id: String) -> (Feed, VideoTransform?) {
        guard streaming[id] == true else { return (.idle, nil) }
        guard let daemon else { return (.unavailable(refusal ?? "foldcamd is not running"), nil) }
        guard let camera = daemon.virtualCameras.first(where: { $0.id == id }) else {
            return (.unavailable("foldcamd has no virtual camera \(ClientText.quoted(id))"), nil)
        }
        guard let source = camera.source else {
            return (.unavailable("no camera available (\(camera.reason ?? "no source"))"), nil)
        }
        guard let match = matches[source] else {
            return (.unavailable("rig camera \(ClientText.quoted(source)) has no \"pipewire\" match"), nil)
        }
        guard let name = nodes.first(where: { match.matches($0.properties) })?.name else {
            let wanted = match.requirements.map { "\($0.property)=\($0.value)" }.joined(separator: ", ")
            return (.unavailable("no PipeWire camera node has \(wanted) (rig camera \(ClientText.quoted(source)))"), nil)
        }
        return (.node(name), VideoTransform(captureRotation: camera.captureRotation, mirrored: mirrored))
    }
}
