import FoldcamCore

/// What the daemon keeps across restarts in its state directory (docs/install.md, "State"):
/// the persisted pin and the screen rotations, by display id.
///
///     {"version": 1,
///      "pin": {"display": "outer", "uid": 1000, "pid": 4242, "command": "kiosk"},
///      "screenRotations": {"inner": 90}}
struct PersistedState: Equatable {
    var pin: PinBoard.Pin?
    /// Display id and degrees (0, 90, 180, 270); displays at 0 are left out.
    var screenRotations: [String: Int] = [:]

    static let fileName = "state.json"
    static let version = 1
    /// Far more than a rig's displays need; a larger file is not one the daemon wrote.
    static let sizeLimit = 64 * 1024

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("version", .int(Self.version))]
        if let pin {
            var owner: [(String, JSONValue)] = [("display", .string(pin.display)), ("uid", .int(Int(pin.owner.uid))), ("pid", .int(Int(pin.owner.pid)))]
            owner.append(("command", pin.owner.command.map(JSONValue.string) ?? .null))
            members.append(("pin", .object(owner)))
        }
        members.append(("screenRotations", .object(screenRotations.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })))
        return .object(members)
    }

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads a file this daemon wrote; anything else is refused with what is wrong.
    init(decoding bytes: [UInt8]) throws(Invalid) {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw Invalid(description: "not JSON (\(error))") }
        guard case .object = root else { throw Invalid(description: "expected an object, found \(root.kindDescription)") }
        guard root["version"]?.numberValue == Double(Self.version) else {
            throw Invalid(description: "\"version\" is \(root["version"].map { ClientText.escaped($0.compactText, limit: ClientText.defaultLimit) } ?? "missing"), expected \(Self.version)")
        }
        if let pin = root["pin"], pin != .null {
            guard let display = pin["display"]?.stringValue, !display.isEmpty else { throw Invalid(description: "\"pin\" has no \"display\"") }
            guard let uid = pin["uid"]?.numberValue, let owner = UInt32(exactly: uid),
                  let pid = pin["pid"]?.numberValue, let process = Int32(exactly: pid) else {
                throw Invalid(description: "\"pin\" needs a whole \"uid\" and \"pid\"")
            }
            self.pin = PinBoard.Pin(display: display, owner: .init(uid: owner, pid: process, command: pin["command"]?.stringValue), persist: true, sessionID: nil)
        }
        if let rotations = root["screenRotations"] {
            guard case let .object(members) = rotations else { throw Invalid(description: "\"screenRotations\" is not an object") }
            for (display, value) in members {
                guard let degrees = value.numberValue, [0.0, 90, 180, 270].contains(degrees) else {
                    throw Invalid(description: "\"screenRotations\".\(ClientText.quoted(display)) is \(ClientText.escaped(value.compactText, limit: ClientText.defaultLimit)), expected 0, 90, 180 or 270")
                }
                screenRotations[display] = Int(degrees)
            }
        }
    }

    init(pin: PinBoard.Pin?, screenRotations: [String: Int]) {
        self.pin = pin
        self.screenRotations = screenRotations
    }
}
