/// A scripted sequence of inputs: `{"steps": [{"hinge": {"fold": 180}}, {"wait": 250}, ...]}`.
/// Each step becomes the same `InputEvent`s the hardware layer produces. This keeps every step
/// decoded; `ScenarioScript` streams scripts of any length.
public struct Scenario: Sendable {
    public var steps: [[InputEvent]]

    static let stepKeys = [
        "hinge", "hingeLost", "switches", "gravity", "accelerometers", "accelerometerLost",
        "accelerometerOrientation", "screenRotation", "pinView", "unplug", "plug", "busy", "release", "output", "wait", "presence",
    ]

    /// Decodes and checks every step against the rig; all problems are reported together.
    public static func decode(json text: String, rig: Rig) throws(DocumentErrors) -> Scenario {
        var steps: [[InputEvent]] = []
        try ScenarioScript.read(Array(text.utf8), rig: rig) { steps.append($0) }
        return Scenario(steps: steps)
    }

    /// The rig's ids by kind, looked up once per script rather than once per step.
    struct IDs {
        let hinges: IDTable
        let accelerometers: IDTable
        let displays: IDTable
        let cameras: IDTable
        let presence: IDTable

        init(_ rig: Rig) {
            func table(_ ids: [String]) -> IDTable { IDTable(decoded: ids, declared: ids) }
            hinges = table(rig.hinges.map(\.id))
            accelerometers = table(rig.accelerometers.map(\.id))
            displays = table(rig.displays.map(\.id))
            cameras = table(rig.cameras.map(\.id))
            presence = table(rig.presence.map(\.id))
        }
    }

    static func decodeStep(_ step: JSONCursor, ids: IDs) -> [InputEvent] {
        guard let members = step.members() else { return [] }
        if members.isEmpty { step.collector.add(step.path, "empty step (expected one of: \(stepKeys.joined(separator: ", ")))") }
        var events: [InputEvent] = []
        for (key, value) in members {
            switch key {
            case "hinge":
                for (hingeID, angle) in value.members() ?? [] {
                    guard let hinge = ids.hinges.resolve(hingeID, at: angle, kind: "hinge"), let degrees = angle.number() else { continue }
                    events.append(.hingeAngle(hinge: hinge, degrees: degrees))
                }
            case "hingeLost":
                if let hinge = value.reference(ids.hinges, kind: "hinge") { events.append(.hingeSensorLost(hinge: hinge)) }
            case "switches":
                events += decodeSwitches(value)
            case "gravity":
                if let v = value.numbers(count: 3) { events.append(.gravity(Vector3(v[0], v[1], v[2]))) }
            case "accelerometers":
                for (sensorID, reading) in value.members() ?? [] {
                    guard let sensor = ids.accelerometers.resolve(sensorID, at: reading, kind: "accelerometer"), let v = reading.numbers(count: 3) else { continue }
                    events.append(.accelerometer(sensor: sensor, reading: Vector3(v[0], v[1], v[2])))
                }
            case "accelerometerLost":
                if let sensor = value.reference(ids.accelerometers, kind: "accelerometer") { events.append(.accelerometerLost(sensor: sensor)) }
            case "accelerometerOrientation":
                for (sensorID, text) in value.members() ?? [] {
                    guard let sensor = ids.accelerometers.resolve(sensorID, at: text, kind: "accelerometer"), let word = text.string() else { continue }
                    do {
                        events.append(.accelerometerOrientation(sensor: sensor, orientation: try ProxyOrientation(parsing: word)))
                    } catch {
                        text.collector.add(text.path, error.message)
                    }
                }
            case "screenRotation":
                for (displayID, degrees) in value.members() ?? [] {
                    guard let display = ids.displays.resolve(displayID, at: degrees, kind: "display"), let turn = degrees.integer() else { continue }
                    if [0, 90, 180, 270].contains(turn) {
                        events.append(.screenRotation(display: display, degrees: turn))
                    } else {
                        degrees.collector.add(degrees.path, "\(turn) is not one of 0, 90, 180, 270")
                    }
                }
            case "pinView":
                if value.value == .null {
                    events.append(.pinView(display: nil))
                } else if let display = value.reference(ids.displays, kind: "display") {
                    events.append(.pinView(display: display))
                }
            case "unplug", "plug", "busy", "release":
                guard let camera = value.reference(ids.cameras, kind: "camera") else { continue }
                switch key {
                case "unplug": events.append(.cameraUnplugged(camera: camera))
                case "plug": events.append(.cameraPlugged(camera: camera))
                case "busy": events.append(.cameraBusy(camera: camera, busy: true))
                default: events.append(.cameraBusy(camera: camera, busy: false))
                }
            case "output":
                for (displayID, state) in value.members() ?? [] {
                    guard let display = ids.displays.resolve(displayID, at: state, kind: "display"), let text = state.string() else { continue }
                    if let parsed = OutputState(rawValue: text) {
                        events.append(.output(display: display, state: parsed, panelOrientation: nil))
                    } else {
                        state.collector.add(state.path, "\"\(text)\" is not an output state (expected one of: \(OutputState.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                }
            case "presence":
                for (inputID, state) in value.members() ?? [] {
                    guard let input = ids.presence.resolve(inputID, at: state, kind: "presence input"), let text = state.string() else { continue }
                    switch text {
                    case "present": events.append(.presence(input: input, present: true))
                    case "absent": events.append(.presence(input: input, present: false))
                    default: state.collector.add(state.path, "\"\(text)\" is not a presence state (expected \"present\" or \"absent\")")
                    }
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

    private static func decodeSwitches(_ value: JSONCursor) -> [InputEvent] {
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

/// A scenario script checked whole, then replayed step by step: neither pass keeps more than
/// one step, so memory does not grow with the script (only its bytes are held).
public struct ScenarioScript: Sendable {
    public let rig: Rig
    private let bytes: [UInt8]

    /// Checks the whole script against the rig; every problem is reported together.
    public init(bytes: [UInt8], rig: Rig) throws(DocumentErrors) {
        try Self.read(bytes, rig: rig) { _ in }
        self.bytes = bytes
        self.rig = rig
    }

    /// Each step's events in order, until `body` returns false.
    public func forEachStep(_ body: ([InputEvent]) -> Bool) {
        let ids = Scenario.IDs(rig)
        var reader = ScenarioScriptReader(bytes: bytes)
        var going = true
        // Checked in init: no syntax error and no step error can appear here.
        try? reader.read(collector: ErrorCollector()) { path, value in
            guard going else { return }
            let cursor = JSONCursor(value: value, path: path, collector: ErrorCollector())
            going = body(Scenario.decodeStep(cursor, ids: ids))
        }
    }

    static func read(_ bytes: [UInt8], rig: Rig, _ body: ([InputEvent]) -> Void) throws(DocumentErrors) {
        let ids = Scenario.IDs(rig)
        let collector = ErrorCollector()
        var reader = ScenarioScriptReader(bytes: bytes)
        do {
            try reader.read(collector: collector) { path, value in
                body(Scenario.decodeStep(JSONCursor(value: value, path: path, collector: collector), ids: ids))
            }
        } catch {
            throw DocumentErrors([PathError(path: "", message: "invalid JSON: \(error)")])
        }
        guard collector.errors.isEmpty else { throw collector.reported }
    }
}

/// Runs scripted steps through a fresh engine: one JSON object per step.
public struct ScenarioRunner {
    private var engine: FoldEngine
    private var index = 0

    public init(rig: Rig) {
        engine = FoldEngine(rig: rig)
    }

    /// Applies one step's events; the state after it, with `step`, `changed` and `warnings`.
    public mutating func step(_ events: [InputEvent]) -> JSONValue {
        let before = engine.state
        var warnings: [String] = []
        for event in events { warnings += engine.apply(event).warnings }
        let change = StateChange(from: before, to: engine.state)
        guard case var .object(members) = StateEncoder.encode(engine.state, rig: engine.rig, plan: engine.plan) else {
            preconditionFailure("the state encodes as an object")
        }
        members.insert(("step", .int(index)), at: 0)
        members.append(("changed", .array(change.topics.map { .string($0) })))
        if !warnings.isEmpty { members.append(("warnings", .array(warnings.map { .string($0) }))) }
        index += 1
        return .object(members)
    }

    public static func run(_ scenario: Scenario, rig: Rig) -> [JSONValue] {
        var runner = ScenarioRunner(rig: rig)
        return scenario.steps.map { runner.step($0) }
    }

    /// Streams a script: `emit` gets each step's line as soon as it is computed and returns
    /// false to stop (the reader went away).
    public static func run(_ script: ScenarioScript, emit: (JSONValue) -> Bool) {
        var runner = ScenarioRunner(rig: script.rig)
        script.forEachStep { emit(runner.step($0)) }
    }
}
