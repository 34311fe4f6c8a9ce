import FoldcamCore

/// Every request method the daemon answers. Routing, `hello`'s method list, the authorizer's
/// access classes and the table in docs/security.md all come from this one list.
enum Method: String, CaseIterable {
    case hello, devices, state, directions, subscribe, unsubscribe, metrics
    case snapshot
    case reportSinks
    case pinView, unpinView, setScreenRotation
    case simulateHinge = "simulate.hinge"
    case simulateSwitch = "simulate.switch"
    case simulateGravity = "simulate.gravity"
    case simulateAccelerometer = "simulate.accelerometer"
    case simulatePlug = "simulate.plug"
    case simulateUnplug = "simulate.unplug"
    case simulateBusy = "simulate.busy"
    case simulateSweep = "simulate.sweep"

    /// Who may call a method (docs/security.md).
    enum Access: String {
        /// Decisions and state: anyone who can connect to the socket.
        case read
        /// Camera pixels: those who could open the camera themselves.
        case frames
        /// Changes: root, the daemon's user and the control group.
        case control
    }

    var access: Access {
        switch self {
        case .hello, .devices, .state, .directions, .subscribe, .unsubscribe, .metrics: return .read
        // A sink report claims the virtual camera's pixels reach a reader: only a peer that may
        // receive those pixels could be delivering them (docs/security.md).
        case .snapshot, .reportSinks: return .frames
        case .pinView, .unpinView, .setScreenRotation: return .control
        case .simulateHinge, .simulateSwitch, .simulateGravity, .simulateAccelerometer, .simulatePlug,
             .simulateUnplug, .simulateBusy, .simulateSweep: return .control
        }
    }

    /// The params each method takes; any other name is refused with `invalidParams` naming the
    /// nearest valid one (docs/protocol.md), so a typo never silently changes the meaning.
    var parameterNames: [String] {
        switch self {
        case .hello, .devices, .state, .metrics: return []
        case .directions: return ["display", "output"]
        case .pinView: return ["display", "persist"]
        case .unpinView: return ["persist"]
        case .subscribe: return ["topics", "output"]
        case .unsubscribe: return ["topics"]
        case .snapshot: return ["at", "camera", "virtualCamera"]
        case .reportSinks: return ["sinks", "cameras"]
        case .setScreenRotation: return ["display", "rotation"]
        case .simulateHinge: return ["hinge", "angle"]
        case .simulateSwitch: return ["switch", "state"]
        case .simulateGravity: return ["vector"]
        case .simulateAccelerometer: return ["accelerometer", "reading"]
        case .simulatePlug, .simulateUnplug: return ["camera"]
        case .simulateBusy: return ["camera", "busy"]
        case .simulateSweep: return ["running"]
        }
    }

    /// Params a method no longer takes, and what to do instead.
    var withdrawnParameters: [String: String] {
        switch self {
        case .snapshot:
            let why = "the daemon writes no file a client names; the PNG comes back in the reply (\"png\", base64) — write it yourself (foldcamctl snapshot OUT.png does)"
            return ["path": why, "inline": why]
        default: return [:]
        }
    }

    /// Methods that exist only in a daemon started with `--simulate`.
    var simulateOnly: Bool {
        if case .daemon(.simulation) = route { return true }
        return false
    }

    /// The methods a daemon in `mode` answers, in the order `hello` lists them.
    static func available(simulate: Bool) -> [Method] {
        allCases.filter { simulate || !$0.simulateOnly }
    }

    /// The method a request names, or a failure: `unknownMethod` naming the nearest valid one.
    /// `found` is `Method(rawValue: name)` (the caller looks it up once, for its metrics too).
    static func named(_ name: String, found: Method?, id: JSONValue, simulate: Bool) -> Result<Method, WireProtocol.Failure> {
        if let method = found, simulate || !method.simulateOnly { return .success(method) }
        if let method = found, method.simulateOnly {
            return .failure(WireProtocol.Failure(id: id, code: .unavailable, message: "\(name) works only when the daemon runs with --simulate"))
        }
        let names = available(simulate: simulate).map(\.rawValue)
        let hint = NearestName.hint(for: name, among: names)
        return .failure(WireProtocol.Failure(id: id, code: .unknownMethod, message: "unknown method \(ClientText.quoted(name))\(hint) (see \"hello\" for the list)"))
    }
}

/// Where each method is handled. `route` is an exhaustive switch, and so is every router over
/// its own part (no `default:`), so a method added here without a handler does not compile.
extension Method {
    enum Route: Equatable {
        /// Answered by the server from the session (ControlServer+Routing.swift, `dispatch`).
        case server(Server)
        /// Handed to the daemon (Daemon+Requests.swift, `handle`).
        case daemon(DaemonRequest)
    }

    /// The session's own subscriptions.
    enum Server: Equatable { case subscribe, unsubscribe }

    enum DaemonRequest: Equatable {
        /// Answered from the published values (`Daemon.read`).
        case read(Read)
        /// Changes the state (`Daemon.change`).
        case change(Change)
        /// A frame from the snapshot worker, answered later (SnapshotService.swift).
        case snapshot
        /// Sinks only their session can see, as their companion reports them (SinkReports.swift).
        case reportSinks
        /// The simulator's inputs (`Daemon.simulate`); only with --simulate.
        case simulation(Simulation)
    }

    enum Read: Equatable { case hello, devices, state, directions, metrics }
    enum Change: Equatable { case pinView, unpinView, setScreenRotation }
    enum Simulation: Equatable { case hinge, `switch`, gravity, accelerometer, plug, unplug, busy, sweep }

    var route: Route {
        switch self {
        case .subscribe: return .server(.subscribe)
        case .unsubscribe: return .server(.unsubscribe)
        case .hello: return .daemon(.read(.hello))
        case .devices: return .daemon(.read(.devices))
        case .state: return .daemon(.read(.state))
        case .directions: return .daemon(.read(.directions))
        case .metrics: return .daemon(.read(.metrics))
        case .snapshot: return .daemon(.snapshot)
        case .reportSinks: return .daemon(.reportSinks)
        case .pinView: return .daemon(.change(.pinView))
        case .unpinView: return .daemon(.change(.unpinView))
        case .setScreenRotation: return .daemon(.change(.setScreenRotation))
        case .simulateHinge: return .daemon(.simulation(.hinge))
        case .simulateSwitch: return .daemon(.simulation(.switch))
        case .simulateGravity: return .daemon(.simulation(.gravity))
        case .simulateAccelerometer: return .daemon(.simulation(.accelerometer))
        case .simulatePlug: return .daemon(.simulation(.plug))
        case .simulateUnplug: return .daemon(.simulation(.unplug))
        case .simulateBusy: return .daemon(.simulation(.busy))
        case .simulateSweep: return .daemon(.simulation(.sweep))
        }
    }
}

/// `Method(rawValue:)`, remembering the last name it was asked: clients ask the same method
/// again and again, and comparing two short strings is cheaper than hashing one (which is how
/// a String enum finds its case).
struct MethodLookup {
    private var last: (name: String, method: Method?)?

    mutating func method(named name: String) -> Method? {
        if let last, last.name == name { return last.method }
        let method = Method(rawValue: name)
        last = (name, method)
        return method
    }
}
