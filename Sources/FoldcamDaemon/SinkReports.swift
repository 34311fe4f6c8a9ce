import FoldcamCore

/// Sinks foldcamd cannot see itself: the PipeWire nodes a user session's `foldcam-pipewire`
/// publishes, as that companion reports them (`reportSinks`, docs/pipewire.md). A report
/// belongs to the connection that sent it: it replaces that connection's previous report and
/// ends when the connection closes, so without a companion connected nothing is claimed. Each
/// report holds at most one sink per virtual camera, so one client stores a bounded amount.
struct SinkReports {
    enum State: String, CaseIterable {
        /// A reader consumes the node and a camera node feeds it.
        case streaming
        /// Published, nobody reads it: no camera stream is open.
        case idle
        /// A reader consumes it but no camera can feed it: it shows "camera unavailable".
        case unavailable
    }

    struct Sink: Equatable {
        var virtualCamera: String
        var kind = "pipewire"
        /// The node's `node.name`.
        var node: String
        var state: State
        /// Why it is unavailable, as the companion says.
        var reason: String?
    }

    /// A rig camera whose PipeWire node the companion sees (its rig's `pipewire` match).
    struct SeenCamera: Equatable {
        var camera: String
        /// The camera node's `node.name`.
        var node: String
    }

    struct Report: Equatable {
        var sinks: [Sink]
        var cameras: [SeenCamera] = []
        var reporter: PinBoard.Owner
    }

    static let maximumNodeName = 128

    /// PipeWire node names as foldcam and PipeWire's own monitors make them (`foldcam.front`,
    /// `v4l2_input.pci-0000_00_14.0-usb-0_1_1.0`): nothing a shell would read as syntax.
    static func isNodeNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_:".unicodeScalars.contains(scalar))
    }
    static let maximumReason = 256

    private(set) var bySession: [Int: Report] = [:]

    /// Every reported sink, by virtual camera, then by reporting connection.
    var all: [(sessionID: Int, reporter: PinBoard.Owner, sink: Sink)] {
        bySession.keys.sorted().flatMap { id in bySession[id]!.sinks.map { (id, bySession[id]!.reporter, $0) } }
            .sorted { ($0.sink.virtualCamera, $0.sessionID) < ($1.sink.virtualCamera, $1.sessionID) }
    }

    /// Replaces the connection's report; true when it changed.
    mutating func report(_ sinks: [Sink], cameras: [SeenCamera] = [], reporter: PinBoard.Owner, sessionID: Int) -> Bool {
        let report = Report(sinks: sinks, cameras: cameras, reporter: reporter)
        guard bySession[sessionID] != report else { return false }
        bySession[sessionID] = sinks.isEmpty && cameras.isEmpty ? nil : report
        return true
    }

    /// Every rig camera some companion sees, with the node the first reporter named.
    var seenCameras: [SeenCamera] {
        var seen: [SeenCamera] = []
        for id in bySession.keys.sorted() {
            for camera in bySession[id]!.cameras where !seen.contains(where: { $0.camera == camera.camera }) { seen.append(camera) }
        }
        return seen.sorted { $0.camera < $1.camera }
    }

    /// One flag per camera of `rig`: whether a companion sees its PipeWire node.
    func seen(in rig: Rig) -> [Bool] {
        let ids = Set(seenCameras.map(\.camera))
        return rig.cameras.map { ids.contains($0.id) }
    }

    /// `state`'s `camerasInPipeWire`.
    var camerasJSON: JSONValue {
        .array(seenCameras.map { .object([("camera", .string($0.camera)), ("node", .string($0.node))]) })
    }

    /// The connection closed: its sinks are no longer claimed. Returns its report, if any.
    mutating func sessionLeft(_ sessionID: Int) -> Report? {
        bySession.removeValue(forKey: sessionID)
    }

    /// What a refused snapshot of `virtualCamera` adds when a PipeWire node carries its frames:
    /// those frames exist only in the companion's session, which foldcamd cannot read.
    func snapshotHint(virtualCamera: String) -> String? {
        guard let sink = all.first(where: { $0.sink.virtualCamera == virtualCamera && $0.sink.kind == "pipewire" })?.sink else { return nil }
        return "the PipeWire node \(ClientText.quoted(sink.node)) carries its frames in the companion's session, which foldcamd cannot read: take a frame from the node there (one raw frame at the node's format: gst-launch-1.0 pipewiresrc target-object=\(sink.node) num-buffers=1 ! video/x-raw ! filesink location=frame.raw)"
    }

    /// `state`'s `sinks`: what was reported, never who reported it (the journal says that).
    var json: JSONValue {
        .array(all.map { entry in
            var members: [(String, JSONValue)] = [
                ("virtualCamera", .string(entry.sink.virtualCamera)), ("kind", .string(entry.sink.kind)),
                ("node", .string(entry.sink.node)), ("state", .string(entry.sink.state.rawValue)),
            ]
            if let reason = entry.sink.reason { members.append(("reason", .string(reason))) }
            return .object(members)
        })
    }

    /// Reads `params.cameras` (optional): an array of {camera, node}, each a camera of `rig`
    /// with a `pipewire` match, at most once.
    static func parseCameras(_ params: Params, rig: Rig) throws(WireProtocol.Failure) -> [SeenCamera] {
        guard let value = params.request.params["cameras"], value != .null else { return [] }
        guard case let .array(items) = value else { throw params.failure("params.cameras: expected an array, found \(value.kindDescription)") }
        guard items.count <= rig.cameras.count else {
            throw params.failure("params.cameras: \(items.count) cameras, but rig \(rig.id) has \(ClientText.counted(rig.cameras.count, "camera"))")
        }
        var cameras: [SeenCamera] = []
        for (index, item) in items.enumerated() {
            let at = "params.cameras[\(index)]"
            guard case let .object(members) = item else { throw params.failure("\(at): expected an object, found \(item.kindDescription)") }
            let known = ["camera", "node"]
            for (key, _) in members where !known.contains(key) {
                throw params.failure("\(at): unknown member \(ClientText.quoted(key))\(NearestName.hint(for: key, among: known)) (expected: \(known.joined(separator: ", ")))")
            }
            guard let id = item["camera"]?.stringValue else { throw params.failure("\(at).camera: missing, or not a string") }
            let ids = rig.cameras.map(\.id)
            guard let camera = rig.cameraIndex(id).map({ rig.cameras[$0] }) else {
                throw params.failure("\(at).camera: rig \(rig.id) has no camera \(ClientText.quoted(id))\(NearestName.hint(for: id, among: ids)) (cameras: \(ids.joined(separator: ", ")))")
            }
            guard camera.pipewire != nil else {
                throw params.failure("\(at).camera: rig camera \(ClientText.quoted(id)) has no \"pipewire\" match, so no PipeWire node is it (docs/pipewire.md)")
            }
            guard !cameras.contains(where: { $0.camera == id }) else { throw params.failure("\(at).camera: \(ClientText.quoted(id)) is reported twice") }
            guard let node = item["node"]?.stringValue else { throw params.failure("\(at).node: missing, or not a string") }
            // Shown by status, never put into a command: any printable name PipeWire allows.
            guard !node.isEmpty, node.utf8.count <= maximumNodeName, !node.unicodeScalars.contains(where: ClientText.mustEscape) else {
                throw params.failure("\(at).node: \(ClientText.quoted(node)) must be 1 to \(maximumNodeName) bytes of printable text")
            }
            cameras.append(SeenCamera(camera: id, node: node))
        }
        return cameras
    }

    /// Reads `params.sinks`: an array of {virtualCamera, node, state, reason?}, each naming one
    /// of `virtualCameras` at most once.
    static func parse(_ params: Params, virtualCameras: [String]) throws(WireProtocol.Failure) -> [Sink] {
        guard let value = params.request.params["sinks"] else { throw params.failure("params.sinks: missing (give [] to withdraw this connection's report)") }
        guard case let .array(items) = value else { throw params.failure("params.sinks: expected an array, found \(value.kindDescription)") }
        guard items.count <= virtualCameras.count else {
            throw params.failure("params.sinks: \(items.count) sinks, but this daemon has \(ClientText.counted(virtualCameras.count, "virtual camera")) (one sink each at most)")
        }
        var sinks: [Sink] = []
        for (index, item) in items.enumerated() {
            let at = "params.sinks[\(index)]"
            guard case let .object(members) = item else { throw params.failure("\(at): expected an object, found \(item.kindDescription)") }
            let known = ["virtualCamera", "node", "state", "reason"]
            for (key, _) in members where !known.contains(key) {
                throw params.failure("\(at): unknown member \(ClientText.quoted(key))\(NearestName.hint(for: key, among: known)) (expected: \(known.joined(separator: ", ")))")
            }
            func text(_ key: String, limit: Int, required: Bool) throws(WireProtocol.Failure) -> String? {
                guard let value = item[key], value != .null else {
                    if required { throw params.failure("\(at).\(key): missing") }
                    return nil
                }
                guard let string = value.stringValue else { throw params.failure("\(at).\(key): expected a string, found \(value.kindDescription)") }
                guard !string.isEmpty, string.utf8.count <= limit, !string.unicodeScalars.contains(where: ClientText.mustEscape) else {
                    throw params.failure("\(at).\(key): \(ClientText.quoted(string)) must be 1 to \(limit) bytes of printable text")
                }
                return string
            }
            let camera = try text("virtualCamera", limit: ClientText.defaultLimit, required: true)!
            guard virtualCameras.contains(camera) else {
                throw params.failure("\(at).virtualCamera: no virtual camera \(ClientText.quoted(camera))\(NearestName.hint(for: camera, among: virtualCameras)) (virtual cameras: \(virtualCameras.joined(separator: ", ")))")
            }
            guard !sinks.contains(where: { $0.virtualCamera == camera }) else {
                throw params.failure("\(at).virtualCamera: \(ClientText.quoted(camera)) is reported twice (one sink per virtual camera)")
            }
            let node = try text("node", limit: maximumNodeName, required: true)!
            // The name goes into the shell command a refused snapshot suggests to other users.
            guard node.unicodeScalars.allSatisfy(Self.isNodeNameCharacter) else {
                throw params.failure("\(at).node: \(ClientText.quoted(node)) is not a PipeWire node name (letters, digits and . _ : - only)")
            }
            let stateName = try text("state", limit: 32, required: true)!
            let names = State.allCases.map(\.rawValue)
            guard let state = State(rawValue: stateName) else {
                throw params.failure("\(at).state: unknown state \(ClientText.quoted(stateName))\(NearestName.hint(for: stateName, among: names)) (states: \(names.joined(separator: ", ")))")
            }
            let reason = try text("reason", limit: maximumReason, required: false)
            if reason != nil && state != .unavailable { throw params.failure("\(at).reason: only an unavailable sink has a reason (state is \(stateName))") }
            sinks.append(Sink(virtualCamera: camera, node: node, state: state, reason: reason))
        }
        return sinks
    }
}
