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
///
/// A camera node that is listed but cannot feed (WirePlumber will not link it, no format is
/// agreed, no frame comes, or its frames stop: `inputFailed`) is unlinkable until it leaves
/// the registry or a fresh decision names its camera again: another node that matches the
/// camera feeds instead, else the node shows "camera unavailable" saying why, and the camera is left out of what the
/// companion tells foldcamd it sees (`seenCameras`), so that foldcamd can decide on another.
/// While it stays the decided camera's only listed node, it is tried again on a backoff
/// (`retryDelays`, `Action.retryLater`): what failed may work later (a camera another
/// program held), and nothing else would try it. A retry whose stream delivers ends the backoff
/// (`inputDelivered`): the node's next failure is news again.
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
        /// The input stream connected to the camera node `node` (its `CameraNode.target`) for
        /// this virtual camera failed before its first frame, or stopped sending frames: why.
        case inputFailed(virtualCamera: String, node: String, reason: String)
        /// An input stream connected to the camera node `node` delivered its first frame.
        case inputDelivered(node: String)
        /// The timer of `Action.retryLater` for camera node `node` went off.
        case retryDue(node: String, attempt: Int)
    }

    public enum Action: Sendable, Equatable {
        /// Consume this camera node (`node`: its `CameraNode.target`), its frames carrying
        /// `transform` (the current input feeds, with its own transform, until the new one delivers).
        case connectInput(virtualCamera: String, node: String, transform: VideoTransform)
        /// Nobody consumes the node: close its camera stream.
        case disconnectInput(virtualCamera: String)
        /// Someone consumes it but no camera can feed it: close any input, show the
        /// "camera unavailable" frame.
        case showUnavailable(virtualCamera: String, reason: String)
        /// The camera last connected stays, but its frames turn otherwise from now on (the
        /// same camera, a new capture rotation).
        case setTransform(virtualCamera: String, VideoTransform)
        /// Camera node `node` failed to feed this virtual camera and nothing else feeds it: send
        /// `Input.retryDue(node:attempt:)` in `seconds`. `newDelay`: the first retry at this
        /// delay (log it; later ones at the same delay are not).
        case retryLater(virtualCamera: String, node: String, seconds: Int, attempt: Int, newDelay: Bool)
    }

    /// Seconds before each retry of a node that failed to feed; the last one repeats.
    public static let retryDelays = [5, 10, 30, 60]

    /// What a node shows.
    public enum Feed: Sendable, Equatable {
        case idle
        case unavailable(String)
        /// Fed by the camera node with this `CameraNode.target`.
        case node(String)
    }

    private let matches: [String: PipeWireMatch]
    private let cameraOrder: [String]
    /// The rig mirrors the virtual camera (`virtualCamera.mirror`), as the loopback does.
    private let mirrored: Bool
    private var daemon: DaemonView?
    private var refusal: String?
    private var streaming: [String: Bool] = [:]
    private var nodes: [CameraNode] = []
    private var feeds: [String: Feed] = [:]
    private var transforms: [String: VideoTransform] = [:]
    /// Camera nodes (by `CameraNode.target`) that failed to feed, with why.
    private var unlinkable: [String: String] = [:]
    /// Retries scheduled for each unlinkable node since it last failed fresh (a decision, a
    /// listing): the backoff step, and which timer is the live one.
    private var retries: [String: Int] = [:]

    /// `rig`'s cameras with a `pipewire` match are the ones this bridge can feed from.
    public init(rig: Rig) {
        var matches: [String: PipeWireMatch] = [:]
        for camera in rig.cameras { if let match = camera.pipewire { matches[camera.id] = match } }
        self.matches = matches
        cameraOrder = rig.cameras.map(\.id)
        mirrored = rig.virtualCamera.mirror
    }

    /// What node `id` shows now.
    public func feed(_ id: String) -> Feed { feeds[id] ?? .idle }

    /// The rig cameras with a node the registry lists that has not failed to feed, in rig
    /// order, with the node's name.
    public var seenCameras: [(camera: String, node: String)] {
        cameraOrder.compactMap { id in
            guard let match = matches[id], let name = usableNode(match)?.name else { return nil }
            return (id, name)
        }
    }

    /// Why camera node `target` cannot feed, when it failed to.
    public func failure(_ target: String) -> String? { unlinkable[target] }

    /// Whether camera node `target`'s stream is a retry (its failure is a backoff step, not news).
    public func isRetrying(_ target: String) -> Bool { retries[target, default: 0] > 0 }

    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case let .daemon(view):
            retryFreshDecisions(view)
            (daemon, refusal) = (view, nil)
        case .daemonGone: (daemon, refusal) = (nil, nil)
        case let .daemonRefused(reason): (daemon, refusal) = (nil, reason)
        case let .output(id, on): streaming[id] = on
        case let .cameraNodes(list):
            nodes = list.filter { !$0.isFoldcam }
            // A node listed again is a new node (a new serial): only those still listed stay marked.
            let listed = Set(nodes.compactMap(\.target))
            unlinkable = unlinkable.filter { listed.contains($0.key) }
            retries = retries.filter { listed.contains($0.key) }
        case let .inputFailed(_, target, reason):
            guard nodes.contains(where: { $0.target == target }) else { break }
            unlinkable[target] = reason
        case let .inputDelivered(target):
            // Not once it failed meanwhile (another virtual camera's stream to it): its retry
            // timer is the live one.
            if unlinkable[target] == nil { retries[target] = nil }
        case let .retryDue(target, attempt):
            guard retries[target] == attempt, unlinkable[target] != nil else { break }
            guard !waitingFor(target).isEmpty else {
                retries[target] = nil // no longer decided: a fresh decision tries it again
                break
            }
            unlinkable[target] = nil
        }
        var actions: [Action] = []
        for id in streaming.keys.sorted() { actions += update(id) }
        if case let .inputFailed(_, target, _) = input, unlinkable[target] != nil, let id = waitingFor(target).first {
            let attempt = retries[target, default: 0]
            let delays = Self.retryDelays
            retries[target] = attempt + 1
            actions.append(.retryLater(virtualCamera: id, node: target, seconds: delays[min(attempt, delays.count - 1)], attempt: attempt + 1,
                                       newDelay: attempt < delays.count))
        }
        return actions
    }

    /// The streaming virtual cameras whose decided camera matches camera node `target` and has
    /// no usable node: those it would feed if it worked.
    private func waitingFor(_ target: String) -> [String] {
        guard let node = nodes.first(where: { $0.target == target }), let daemon else { return [] }
        return streaming.keys.sorted().filter { id in
            guard streaming[id] == true, let source = daemon.virtualCameras.first(where: { $0.id == id })?.source,
                  let match = matches[source] else { return false }
            return match.matches(node.properties) && usableNode(match) == nil
        }
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
        guard let target = usableNode(match)?.target else {
            if let failed = nodes.first(where: { match.matches($0.properties) }), let target = failed.target, let reason = unlinkable[target] {
                let name = failed.name.map { "\($0) (object.serial \(target))" } ?? target
                return (.unavailable("camera node \(name) of rig camera \(ClientText.quoted(source)) cannot feed: \(reason)"), nil)
            }
            let wanted = match.requirements.map { "\($0.property)=\($0.value)" }.joined(separator: ", ")
            return (.unavailable("no PipeWire camera node has \(wanted) (rig camera \(ClientText.quoted(source)))"), nil)
        }
        return (.node(target), VideoTransform(captureRotation: camera.captureRotation, mirrored: mirrored))
    }

    /// The first listed node that matches and has not failed to feed.
    private func usableNode(_ match: PipeWireMatch) -> CameraNode? {
        nodes.first { node in match.matches(node.properties) && node.target.map { unlinkable[$0] == nil } ?? false }
    }

    /// A decision that names another camera than the last one did tries that camera's nodes
    /// again: what failed may work now (a camera another program held), and a node that fails
    /// again is marked again, once per decision.
    private mutating func retryFreshDecisions(_ view: DaemonView) {
        guard !unlinkable.isEmpty else { return }
        for camera in view.virtualCameras {
            guard let source = camera.source, daemon?.virtualCameras.first(where: { $0.id == camera.id })?.source != source,
                  let match = matches[source] else { continue }
            for node in nodes where match.matches(node.properties) {
                if let target = node.target { (unlinkable[target], retries[target]) = (nil, nil) }
            }
        }
    }
}
