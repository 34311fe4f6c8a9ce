import FoldcamCore

/// The counters the daemon keeps for operators (docs/metrics.md). Every label comes from the
/// rig's ids, the `Method` list or the protocol's error codes, never from client text, so the
/// number of series is bounded by the rig. Event loop only.
final class DaemonMetrics {
    /// Requests by method and result, one counter per pair in a flat table: counting a request
    /// costs an index, not two string hashes and a nested dictionary's update.
    private var requestCounts = [Int](repeating: 0, count: RequestLabel.count * RequestResult.count)
    /// New clients turned away, by the limit that did it.
    private(set) var refusedConnections: [RefusalReason: Int] = [:]
    /// Clients the daemon disconnected, by why.
    private(set) var disconnects: [DisconnectReason: Int] = [:]
    private(set) var reloads: [String: Int] = ["ok": 0, "failed": 0]
    /// Virtual camera source changes, by the input that caused them.
    private(set) var switches: [SwitchCause: Int] = [:]
    private(set) var cameraOpens: [String: Int] = [:]
    private(set) var cameraOpenFailures: [String: Int] = [:]
    /// Decision-to-feed times of switches, seconds.
    private(set) var switchGaps = Histogram(bounds: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5])
    /// Sensor readings the engine or the device layer dropped (out of range, too fast, not finite).
    private(set) var rejectedReadings = 0

    enum RefusalReason: String, CaseIterable { case maxClients, reservedClients, maxClientsPerUser, unidentified }
    enum DisconnectReason: String, CaseIterable { case stuck, requestTimeout, lineTooLong, repliesUnread }
    enum SwitchCause: String, CaseIterable { case fold, pin, unplug, busy, rotation, sensor, reload, other }

    struct Histogram {
        let bounds: [Double]
        private(set) var counts: [Int]
        private(set) var sum: Double = 0

        init(bounds: [Double]) {
            self.bounds = bounds
            counts = Array(repeating: 0, count: bounds.count + 1)
        }

        mutating func observe(_ value: Double) {
            counts[bounds.firstIndex { value <= $0 } ?? bounds.count] += 1
            sum += value
        }

        /// Counts per finite bucket (the last, +Inf-only bucket is in the total).
        var finiteCounts: [Int] { Array(counts.prefix(bounds.count)) }
        var total: Int { counts.reduce(0, +) }
    }

    func request(_ label: RequestLabel, result: WireProtocol.ErrorCode?) {
        requestCounts[label.index * RequestResult.count + RequestResult.index(result)] += 1
    }

    /// Requests by method ("unknown" for names that are none, "invalid" for lines that are no
    /// request) and result ("ok" or an error code): the pairs counted at least once.
    var requests: [String: [String: Int]] {
        var table: [String: [String: Int]] = [:]
        for label in RequestLabel.all {
            for (index, result) in RequestResult.names.enumerated() {
                let count = requestCounts[label.index * RequestResult.count + index]
                if count > 0 { table[label.name, default: [:]][result] = count }
            }
        }
        return table
    }

    /// The `method` label of a request.
    enum RequestLabel: Equatable {
        case method(Method), unknown, invalid

        static let methods = Method.allCases
        static let count = methods.count + 2
        static let all = methods.map { RequestLabel.method($0) } + [.unknown, .invalid]

        var index: Int {
            switch self {
            // Method's == compares cases, not names: the search is a few byte compares.
            case let .method(method): return Self.methods.firstIndex(of: method)!
            case .unknown: return Self.methods.count
            case .invalid: return Self.methods.count + 1
            }
        }

        var name: String {
            switch self {
            case let .method(method): return method.rawValue
            case .unknown: return "unknown"
            case .invalid: return "invalid"
            }
        }
    }

    /// The `result` label: "ok", then each error code.
    enum RequestResult {
        static let codes = WireProtocol.ErrorCode.allCases
        static let count = codes.count + 1
        static let names = ["ok"] + codes.map(\.rawValue)

        static func index(_ code: WireProtocol.ErrorCode?) -> Int {
            guard let code else { return 0 }
            return codes.firstIndex(of: code)! + 1
        }
    }
    func refused(_ reason: RefusalReason) { refusedConnections[reason, default: 0] += 1 }
    func disconnected(_ reason: DisconnectReason) { disconnects[reason, default: 0] += 1 }
    func reloaded(ok: Bool) { reloads[ok ? "ok" : "failed", default: 0] += 1 }
    func switched(_ cause: SwitchCause) { switches[cause, default: 0] += 1 }
    func cameraOpened(_ camera: String) { cameraOpens[camera, default: 0] += 1 }
    func cameraOpenFailed(_ camera: String) { cameraOpenFailures[camera, default: 0] += 1 }
    func switchFed(afterSeconds seconds: Double) { switchGaps.observe(seconds) }
    func readingsRejected(_ count: Int) { rejectedReadings += count }

    /// What caused a change of the virtual camera's source.
    static func cause(of event: InputEvent) -> SwitchCause {
        switch event {
        case .hingeAngle, .hingeSensorLost, .lidSwitch, .tabletModeSwitch, .presence: return .fold
        case .pinView: return .pin
        case .cameraPlugged, .cameraUnplugged: return .unplug
        case .cameraBusy: return .busy
        case .screenRotation: return .rotation
        case .gravity, .accelerometer, .accelerometerLost, .accelerometerOrientation: return .sensor
        default: return .other
        }
    }
}
