/// The daemon's configuration file (`/etc/foldcam/foldcam.json`), decoded with path-qualified
/// errors like rigs are.
public struct DaemonConfig: Sendable, Equatable {
    /// A built-in rig id, a path to a rig JSON file, or `auto` (`automaticRig`).
    public var rig: String = "duo"
    /// `"rig": "auto"`: the rig file beside the configuration (`rig.json`) when there is one,
    /// else this machine's device model; the packaged configuration says it.
    public static let automaticRig = "auto"
    /// True when the file names a rig: a configured rig wins over any device model.
    public var rigGiven = false
    /// The device model chosen for this machine when no rig is configured (not a file key:
    /// set by the configuration loader from /etc and /usr/share/foldcam/models.d).
    public var model: DeviceModel?
    /// Members of this group (and root) may change state over the socket.
    public var group: String?
    public var maxClients: Int = 256
    /// Connections one user may hold unless privileged (root, the daemon's user, `group`).
    public var maxClientsPerUser: Int = 16
    /// Of `maxClients`, slots only privileged peers may take, so nobody can lock them out.
    /// Default: 16, or a quarter of `maxClients` when that is smaller.
    public var reservedClients: Int = 16
    /// A client must send a whole request line within this long of connecting or of starting it.
    public var requestTimeoutSeconds: Int = 10
    /// A client whose unread output has not moved for this long is disconnected.
    public var clientStuckSeconds: Int = 30
    public var logLevel: String = "info"
    /// node_exporter's textfile directory: foldcam.prom is written there (off when nil).
    public var metricsDirectory: String?
    /// How often foldcam.prom is rewritten.
    public var metricsIntervalSeconds: Int = 15
    /// The libinput seat whose switches (SW_LID, SW_TABLET_MODE) are read.
    public var seat: String = "seat0"
    /// The card label of the daemon's own v4l2loopback device: never inventoried as a camera.
    public var loopbackLabel: String = "foldcam"
    /// The loopback's node, when it is fixed (e.g. "/dev/video20"); also never inventoried.
    public var loopbackDevice: String?
    /// Polling interval for IIO sensors without a buffer (bounded: 10 to 1000 ms).
    public var sensorPollMilliseconds: Int = 50
    /// "virtual": one v4l2loopback camera follows the viewer (default). "individual": clients
    /// open the physical cameras themselves; the daemon only turns sensors by their flip
    /// controls and publishes mirroring and rotation.
    public var cameraMode: CameraMode = .virtual
    /// How long the virtual camera's source keeps running after its last reader left
    /// (docs/virtual-camera.md, "Only while watched").
    public var cameraIdleGraceMilliseconds: Int = 2000
    /// Frames a snapshot taken while nobody watches skips after the camera starts, while the
    /// sensor's exposure settles.
    public var snapshotSettleFrames: Int = 5
    /// How the virtual camera's frames reach the loopback: zero-copy where the drivers allow it
    /// ("auto"), or always one copy ("copy") (docs/virtual-camera.md, "Zero-copy forwarding").
    public var virtualCameraForwarding: VirtualCameraForwarding = .auto
    /// Which sinks carry the virtual cameras: `loopback` (foldcamd feeds v4l2loopback devices)
    /// and/or `pipewire` (the user-session companion foldcam-pipewire publishes nodes). Without
    /// `loopback`, foldcamd neither looks for nor feeds a loopback, and its absence is no fault.
    public var sinks: [SinkKind] = [.loopback]
    /// Where the persisted pin and screen rotations are kept. nil: systemd's $STATE_DIRECTORY
    /// when set (the package's unit: /var/lib/foldcam), else nothing is kept.
    public var stateDirectory: String?
    /// The `virtualCameras` list as written; nil when the key is absent (one camera, following
    /// the viewed display, fed through loopbackLabel / loopbackDevice).
    public var configuredVirtualCameras: [VirtualCameraSpec]?

    /// Every virtual camera the daemon feeds, the default one (`snapshot`'s, the unqualified
    /// topics' values) first.
    public var virtualCameras: [VirtualCameraSpec] {
        configuredVirtualCameras ?? [VirtualCameraSpec(id: VirtualCameraSpec.defaultID, loopbackLabel: loopbackLabel, loopbackDevice: loopbackDevice)]
    }

    /// The values of `virtualCameraForwarding`.
    public enum VirtualCameraForwarding: String, Sendable, Equatable, CaseIterable {
        /// Zero-copy where both drivers allow it, one copy otherwise.
        case auto
        /// Always one copy (to measure it, or to rule zero-copy out).
        case copy
    }

    /// The values of `sinks`.
    public enum SinkKind: String, Sendable, Equatable, CaseIterable {
        case loopback, pipewire
    }

    /// Whether foldcamd feeds v4l2loopback devices.
    public var feedsLoopback: Bool { sinks.contains(.loopback) }

    public enum CameraMode: String, Sendable, Equatable, CaseIterable {
        case virtual, individual
    }

    public init() {}

    public static let logLevels = ["error", "warning", "notice", "info", "debug"]

    public static func decode(json text: String) throws(DocumentErrors) -> DaemonConfig {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw DocumentErrors([PathError(path: "", message: "invalid JSON: \(error)")])
        }
        let collector = ErrorCollector()
        let root = JSONCursor(value: value, path: "", collector: collector)
        var config = DaemonConfig()
        if root.isObject() {
            root.checkKeys(["rig", "group", "maxClients", "maxClientsPerUser", "reservedClients", "requestTimeoutSeconds", "metricsDirectory", "metricsIntervalSeconds", "clientStuckSeconds", "logLevel", "seat", "loopbackLabel", "loopbackDevice", "sensorPollMilliseconds", "cameraMode", "cameraIdleGraceMilliseconds", "snapshotSettleFrames", "virtualCameraForwarding", "stateDirectory", "virtualCameras", "sinks"])
            if let cursor = root.field("cameraMode"), let text = cursor.string() {
                if let mode = CameraMode(rawValue: text) { config.cameraMode = mode } else { collector.add(cursor.path, "unknown mode \"\(text)\" (expected one of: virtual, individual)") }
            }
            if let rig = root.field("rig")?.string() {
                if rig.isEmpty { collector.add("rig", "must not be empty (a preset id or a path)") } else { config.rig = rig; config.rigGiven = true }
            }
            if let group = root.field("group")?.string() { config.group = group }
            if let cursor = root.field("maxClients"), let count = cursor.integer() {
                if (1...65536).contains(count) { config.maxClients = count } else { collector.add(cursor.path, "\(count) is out of range (1 to 65536)") }
            }
            if let cursor = root.field("maxClientsPerUser"), let count = cursor.integer() {
                if (1...65536).contains(count) { config.maxClientsPerUser = count } else { collector.add(cursor.path, "\(count) is out of range (1 to 65536)") }
            }
            config.reservedClients = min(16, config.maxClients / 4)
            if let cursor = root.field("reservedClients"), let count = cursor.integer() {
                if (0...65535).contains(count) { config.reservedClients = count } else { collector.add(cursor.path, "\(count) is out of range (0 to 65535)") }
            }
            if config.reservedClients >= config.maxClients {
                collector.add("reservedClients", "\(config.reservedClients) must be below maxClients (\(config.maxClients)), or no unprivileged client could connect")
            }
            if let cursor = root.field("requestTimeoutSeconds"), let seconds = cursor.integer() {
                if (1...3600).contains(seconds) { config.requestTimeoutSeconds = seconds } else { collector.add(cursor.path, "\(seconds) is out of range (1 to 3600)") }
            }
            // null keeps metrics off: the package's template shows the key that way.
            if let cursor = root.field("metricsDirectory"), cursor.value != .null, let directory = cursor.string() {
                if directory.hasPrefix("/") { config.metricsDirectory = directory } else { collector.add(cursor.path, "\"\(directory)\" is not an absolute path (Debian's node_exporter reads /var/lib/prometheus/node-exporter)") }
            }
            if let cursor = root.field("metricsIntervalSeconds"), let seconds = cursor.integer() {
                if (1...3600).contains(seconds) { config.metricsIntervalSeconds = seconds } else { collector.add(cursor.path, "\(seconds) is out of range (1 to 3600)") }
            }
            if let cursor = root.field("clientStuckSeconds"), let seconds = cursor.integer() {
                if (1...3600).contains(seconds) { config.clientStuckSeconds = seconds } else { collector.add(cursor.path, "\(seconds) is out of range (1 to 3600)") }
            }
            if let cursor = root.field("logLevel"), let level = cursor.string() {
                if logLevels.contains(level) { config.logLevel = level } else { collector.add(cursor.path, "unknown level \"\(level)\" (expected one of: \(logLevels.joined(separator: ", ")))") }
            }
            if let cursor = root.field("seat"), let seat = cursor.string() {
                if seat.isEmpty { collector.add(cursor.path, "must not be empty (libinput's default is \"seat0\")") } else { config.seat = seat }
            }
            if let label = root.field("loopbackLabel")?.string() { config.loopbackLabel = label }
            if let cursor = root.field("loopbackDevice"), let node = cursor.string() {
                if node.hasPrefix("/dev/") { config.loopbackDevice = node } else { collector.add(cursor.path, "\"\(node)\" is not a device node (expected /dev/videoN)") }
            }
            if let cursor = root.field("virtualCameras") {
                config.configuredVirtualCameras = VirtualCameraSpec.decodeList(cursor, collector: collector)
                // Two places for one setting would leave it unclear which loopback is fed.
                for key in ["loopbackLabel", "loopbackDevice"] where root.field(key) != nil {
                    collector.add(key, "cannot be combined with virtualCameras: give each virtual camera its own \"\(key)\" inside virtualCameras and remove the top-level one")
                }
            }
            if let cursor = root.field("stateDirectory"), cursor.value != .null, let directory = cursor.string() {
                if directory.hasPrefix("/") { config.stateDirectory = directory } else { collector.add(cursor.path, "\"\(directory)\" is not an absolute path (the package's unit uses /var/lib/foldcam through StateDirectory=)") }
            }
            if let cursor = root.field("sensorPollMilliseconds"), let milliseconds = cursor.integer() {
                if (10...1000).contains(milliseconds) { config.sensorPollMilliseconds = milliseconds } else { collector.add(cursor.path, "\(milliseconds) is out of range (10 to 1000)") }
            }
            if let cursor = root.field("cameraIdleGraceMilliseconds"), let milliseconds = cursor.integer() {
                if (0...600_000).contains(milliseconds) { config.cameraIdleGraceMilliseconds = milliseconds } else { collector.add(cursor.path, "\(milliseconds) is out of range (0 to 600000)") }
            }
            if let cursor = root.field("snapshotSettleFrames"), let frames = cursor.integer() {
                if (0...300).contains(frames) { config.snapshotSettleFrames = frames } else { collector.add(cursor.path, "\(frames) is out of range (0 to 300)") }
            }
            if let cursor = root.field("virtualCameraForwarding"), let text = cursor.string() {
                let names = VirtualCameraForwarding.allCases.map(\.rawValue)
                if let setting = VirtualCameraForwarding(rawValue: text) {
                    config.virtualCameraForwarding = setting
                } else {
                    collector.add(cursor.path, "unknown setting \"\(text)\"\(NearestName.hint(for: text, among: names)) (expected one of: \(names.joined(separator: ", ")))")
                }
            }
        }
        if let cursor = root.field("sinks") { config.sinks = decodeSinks(cursor) ?? config.sinks }
        guard collector.errors.isEmpty else { throw collector.reported }
        return config
    }

    /// `["loopback", "pipewire"]`: at least one, each known and named once.
    private static func decodeSinks(_ cursor: JSONCursor) -> [SinkKind]? {
        guard let items = cursor.array() else { return nil }
        let names = SinkKind.allCases.map(\.rawValue)
        guard !items.isEmpty else {
            cursor.collector.add(cursor.path, "names no sink: give at least one of \(names.joined(separator: ", "))")
            return nil
        }
        var sinks: [SinkKind] = []
        for item in items {
            guard let text = item.string() else { continue }
            guard let sink = SinkKind(rawValue: text) else {
                item.collector.add(item.path, "unknown sink \(ClientText.quoted(text))\(NearestName.hint(for: text, among: names)) (expected one of: \(names.joined(separator: ", ")))")
                continue
            }
            if sinks.contains(sink) {
                item.collector.add(item.path, "\(text) is named twice")
            } else {
                sinks.append(sink)
            }
        }
        return sinks
    }
}
