import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// Pins of the viewed display, owned by the connections that made them (`PinBoard`), and the
/// state that survives a restart (`StateStore`). Every change is logged with who made it.
extension Daemon {
    /// `pinView`: the caller's pin becomes the newest, and so the one in force.
    func pinView(_ params: Params, session: ClientSession) throws(WireProtocol.Failure) {
        let display = try params.id("display", in: rig.displays.map(\.id), kind: "display")
        let persist = try params.optionalBool("persist") ?? false
        if persist && stateStore == nil {
            throw params.failure("params.persist: this daemon has no state directory to keep a pin in (run it under systemd with StateDirectory=, or set \"stateDirectory\" in the config); a pin without persist lasts while this connection is open")
        }
        let owner = Self.owner(of: session)
        let id = rig.displays[display].id
        pins.pin(id, owner: owner, sessionID: session.id, persist: persist)
        log.notice("pin: \(Self.describe(owner)) pinned the view to \(id)\(persist ? " (persisted: it outlives the connection and restarts)" : " while its connection is open")")
        applyPinInForce()
        if persist { saveState() }
    }

    /// `unpinView`: ends the caller's own pin, or with `persist` the persisted one, whoever
    /// made it. Nothing to end is not an error: the reply shows what is in force.
    func unpinView(_ params: Params, session: ClientSession) throws(WireProtocol.Failure) {
        let persisted = try params.optionalBool("persist") ?? false
        let ended = persisted ? pins.unpinPersisted() : pins.unpin(sessionID: session.id)
        guard let ended else { return }
        log.notice("pin: \(Self.describe(Self.owner(of: session))) unpinned \(ended.display)\(persisted ? " (the persisted pin, made by \(Self.describe(ended.owner)))" : "")\(afterwards)")
        applyPinInForce()
        if ended.persist { saveState() }
    }

    /// A connection closed: a pin it held ends unless it persists.
    func releasePins(of sessionID: Int) {
        guard let ended = pins.sessionLeft(sessionID) else { return }
        log.notice("pin: \(Self.describe(ended.owner)) disconnected; its pin on \(ended.display) ended\(afterwards)")
        applyPinInForce()
    }

    /// Restores what the last run kept (at start, before clients connect).
    func restoreState() {
        guard let store = stateStore, let kept = store.load() else { return }
        for (display, degrees) in kept.screenRotations.sorted(by: { $0.key < $1.key }) {
            guard let index = rig.displayIndex(display) else {
                log.warning("state: rig \(rig.id) has no display \(ClientText.quoted(display)); its kept screen rotation is dropped")
                continue
            }
            apply(.screenRotation(display: index, degrees: degrees))
        }
        if let pin = kept.pin {
            if rig.displayIndex(pin.display) != nil {
                pins.restore(pin)
                log.notice("pin: restored the persisted pin on \(pin.display), made by \(Self.describe(pin.owner)) (\(store.path))")
                applyPinInForce()
            } else {
                log.warning("state: rig \(rig.id) has no display \(ClientText.quoted(pin.display)); the persisted pin made by \(Self.describe(pin.owner)) is dropped")
            }
        }
    }

    /// Writes the persisted pin and the screen rotations (no-op without a state directory).
    func saveState() {
        guard let stateStore else { return }
        var rotations: [String: Int] = [:]
        for (index, display) in rig.displays.enumerated() where engine.state.screenRotations[index] != 0 {
            rotations[display.id] = engine.state.screenRotations[index]
        }
        stateStore.save(PersistedState(pin: pins.persisted, screenRotations: rotations))
    }

    /// Each pin, the one in force first, with its owner: `state`'s `pins`.
    var pinsJSON: JSONValue {
        .array(pins.pins.reversed().enumerated().map { order, pin in
            .object([
                ("display", .string(pin.display)), ("inForce", .bool(order == 0)), ("persist", .bool(pin.persist)),
                ("connected", .bool(pin.sessionID != nil)), ("uid", .int(Int(pin.owner.uid))), ("pid", .int(Int(pin.owner.pid))),
                ("command", pin.owner.command.map(JSONValue.string) ?? .null),
            ])
        })
    }

    private func applyPinInForce() {
        apply(.pinView(display: pins.inForce.flatMap { rig.displayIndex($0.display) }))
    }

    private var afterwards: String {
        guard let next = pins.inForce else { return "; nothing is pinned: the view follows the posture" }
        return "; the pin on \(next.display) by \(Self.describe(next.owner)) is in force"
    }

    /// Who a connection is, as the kernel reported at connect; the command name from
    /// /proc/PID/comm when this daemon may read it.
    static func owner(of session: ClientSession) -> PinBoard.Owner {
        guard let credentials = session.credentials else { return .init(uid: UInt32.max, pid: 0, command: nil) }
        let comm = try? FileContents.read("/proc/\(credentials.pid)/comm", limit: 64)
        let command = comm.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "" }
        return .init(uid: credentials.uid, pid: credentials.pid, command: command?.isEmpty == false ? command : nil)
    }

    /// "uid 1000 pid 4242 (kiosk)"; the command is quoted and cut like any client text.
    static func describe(_ owner: PinBoard.Owner) -> String {
        "uid \(owner.uid) pid \(owner.pid)" + (owner.command.map { " \(ClientText.quoted($0))" } ?? "")
    }

    /// `state` for a peer that may not control: each pin without its owner (uid, pid, command),
    /// which would tell a stranger which process of whom holds the kiosk's view.
    static func hidingPinOwners(_ answer: Answer) -> Answer {
        guard case let .value(.object(members)) = answer else { return answer }
        return .value(.object(members.map { key, value in
            guard key == "pins", case let .array(pins) = value else { return (key, value) }
            return (key, .array(pins.map { pin in
                guard case let .object(fields) = pin else { return pin }
                return .object(fields.filter { !["uid", "pid", "command"].contains($0.0) })
            }))
        }))
    }
}
