/// A scripted sequence of inputs: `{"steps": [{"hinge": {"fold": 180}}, {"wait": 250}, ...]}`.
/// Each step becomes the same `InputEvent`s the hardware layer produces.
public struct Scenario: Sendable {
    public var steps: [[InputEvent]]

    static let stepKeys = [
        "hinge", "hingeLost", "switches", "gravity", "accelerometers", "accelerometerLost",
        "screenRotation", "pinView", "unplug", "plug", "busy", "release", "wait",
    ]

    /// Decodes and checks every step against the rig; all problems are reported together.
    public static func decode(json text: String, rig: Rig) throws(DocumentErrors) -> Scenario {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw DocumentErrors([PathError(path: "", message: "invalid JSON: \(error)")])
        }
        let collector = ErrorCollector()
        let root = JSONCursor(value: value, path: "", collector: collector)
        var steps: [[InputEvent]] = []
        if root.isObject() {
            root.checkKeys(["steps"])
            if let elements = root.required("steps", "an array of steps")?.array() {
                steps = elements.map { decodeStep($0, rig: rig) }
            }
        }
        guard collector.errors.isEmpty else { throw DocumentErrors(collector.errors) }
        return Scenario(steps: steps)
    }

    private static func decodeStep(_ step: JSONCursor, rig: Rig) -> [InputEvent] {
        guard let members = step.members() else { return [] }
        if members.isEmpty { step.collector.add(step.path, "empty step (expected one of: \(stepKeys.joined(separator: ", ")))") }
        var events: [InputEvent] = []
        for (key, value) in members {
            switch key {
            case "hinge":
                for (hingeID, angle) in value.members() ?? [] {
                    guard let hinge = angle.lookup(hingeID, in: rig.hinges.map(\.id), kind: "hinge"), let degrees = angle.number() else { continue }
                    events.append(.hingeAngle(hinge: hinge, degrees: degrees))
                }
            case "hingeLost":
                if let hinge = value.reference(rig.hinges.map(\.id), kind: "hinge") { events.append(.hingeSensorLost(hinge: hinge)) }
            case "switches":
                events += decodeSwitches(value, rig: rig)
            case "gravity":
                if let v = value.numbers(count: 3) { events.append(.gravity(Vector3(v[0], v[1], v[2]))) }
            case "accelerometers":
                for (sensorID, reading) in value.members() ?? [] {
                    guard let sensor = reading.lookup(sensorID, in: rig.accelerometers.map(\.id), kind: "accelerometer"), let v = reading.numbers(count: 3) else { continue }
                    events.append(.accelerometer(sensor: sensor, reading: Vector3(v[0], v[1], v[2])))
                }
            case "accelerometerLost":
                if let sensor = value.reference(rig.accelerometers.map(\.id), kind: "accelerometer") { events.append(.accelerometerLost(sensor: sensor)) }
            case "screenRotation":
                for (displayID, degrees) in value.members() ?? [] {
                    guard let display = degrees.lookup(displayID, in: rig.displays.map(\.id), kind: "display"), let turn = degrees.integer() else { continue }
                    if [0, 90, 180, 270].contains(turn) {
                        events.append(.screenRotation(display: display, degrees: turn))
                    } else {
                        degrees.collector.add(degrees.path, "\(turn) is not one of 0, 90, 180, 270")
                    }
                }
            case "pinView":
                if value.value == .null {
                    events.append(.pinView(display: nil))
                } else if let display = value.reference(rig.displays.map(\.id), kind: "display") {
                    events.append(.pinView(display: display))
                }
            case "unplug", "plug", "busy", "release":
                guard let camera = value.reference(rig.cameras.map(\.id), kind: "camera") else { continue }
                switch key {
                case "unplug": events.append(.cameraUnplugged(camera: camera))
                case "plug": events.append(.cameraPlugged(camera: camera))
                case "busy": events.append(.cameraBusy(camera: camera, busy: true))
                default: events.append(.cameraBusy(camera: camera, busy: false))
                }
            case "wait":
                if let milliseconds = value.integer() {
                    if milliseconds >= 0 && milliseconds <= 86_400_000 {
                        events.append(.advanceTime(milliseconds: milliseconds))
                    } else {
                        value.collector.add(value.path, "\(milliseconds) is out of range (expected 0 to 86400000 milliseconds)")
                    }
                }
            default:
                step.collector.add(value.path, "unknown step (expected one of: \(stepKeys.joined(separator: ", ")))")
            }
        }
        return events
    }

    private static func decodeSwitches(_ value: JSONCursor, rig: Rig) -> [InputEvent] {
        var events: [InputEvent] = []
        for (name, state) in value.members() ?? [] {
            guard let text = state.string() else { continue }
            switch (name, text) {
            case ("lid", "closed"): events.append(.lidSwitch(closed: true))
            case ("lid", "open"): events.append(.lidSwitch(closed: false))
            case ("tabletMode", "on"): events.append(.tabletModeSwitch(on: true))
            case ("tabletMode", "off"): events.append(.tabletModeSwitch(on: false))
            case ("lid", _): state.collector.add(state.path, "\"\(text)\" is not a lid state (expected \"open\" or \"closed\")")
            case ("tabletMode", _): state.collector.add(state.path, "\"\(text)\" is not a tablet-mode state (expected \"on\" or \"off\")")
            default: state.collector.add(state.path, "unknown switch (expected lid, tabletMode)")
            }
        }
        return events
    }
}

extension JSONCursor {
    /// Resolves a member name (rather than a string value) among a rig's ids.
    func lookup(_ id: String, in ids: [String], kind: String) -> Int? {
        IDTable(decoded: ids, declared: ids).resolve(id, at: self, kind: kind)
    }

    func reference(_ ids: [String], kind: String) -> Int? {
        reference(IDTable(decoded: ids, declared: ids), kind: kind)
    }
}

/// Runs a scenario through a fresh engine: one JSON object per step.
public enum ScenarioRunner {
    public static func run(_ scenario: Scenario, rig: Rig) -> [JSONValue] {
        var engine = FoldEngine(rig: rig)
        var lines: [JSONValue] = []
        for (index, events) in scenario.steps.enumerated() {
            let before = engine.state
            var warnings: [String] = []
            for event in events { warnings += engine.apply(event).warnings }
            let change = StateChange(from: before, to: engine.state)
            guard case var .object(members) = StateEncoder.encode(engine.state, rig: rig, plan: engine.plan) else { continue }
            members.insert(("step", .int(index)), at: 0)
            members.append(("changed", .array(change.topics.map { .string($0) })))
            if !warnings.isEmpty { members.append(("warnings", .array(warnings.map { .string($0) }))) }
            lines.append(.object(members))
        }
        return lines
    }
}
