import FoldcamCore

/// Turns the DRM connectors seen into each display's output input (`InputEvent.output`),
/// posting only what changed. Pure: the device thread feeds it every scan.
struct OutputTracker {
    private let rig: Rig
    /// What each display was last told; nil until told (the engine starts at `unknown`).
    private var told: [Observation?]
    /// Displays whose missing connector was already logged, so a flapping one logs once.
    private var missingLogged: Set<Int> = []

    struct Observation: Equatable {
        var state: OutputState
        var panelOrientation: Int?
        var connector: String?
    }

    init(rig: Rig) {
        self.rig = rig
        told = Array(repeating: nil, count: rig.displays.count)
    }

    /// Whether any display names an output (else nothing is watched).
    var watches: Bool { rig.displays.contains { $0.output?.connector != nil || $0.output?.edid != nil } }

    /// The connectors whose kernel panel orientation matters: named by a display without a
    /// rig `mountRotation`.
    var orientationNeeded: Set<String> {
        Set(rig.displays.compactMap { $0.output?.mountRotation == nil ? $0.output?.connector : nil })
    }

    /// Whether any display matches by EDID (only then are EDIDs read).
    var readsEDID: Bool { rig.displays.contains { $0.output?.edid != nil } }

    /// The events for one scan, and notes to log. No DRM card at all (a container, no driver)
    /// says nothing: the outputs stay `unknown`.
    mutating func update(_ connectors: [ConnectorRecord], cardsSeen: Bool) -> (events: [InputEvent], notes: [String]) {
        guard cardsSeen else { return ([], []) }
        var events: [InputEvent] = []
        var notes: [String] = []
        for (index, display) in rig.displays.enumerated() {
            guard let output = display.output, output.connector != nil || output.edid != nil else { continue }
            let candidates = connectors.filter { connector in
                (output.connector.map { $0 == connector.name } ?? true)
                    && (output.edid.map { match in connector.edid.map(match.matches) ?? false } ?? true)
            }
            // Several cards may show one name (hybrid graphics): the one that is most alive.
            let best = candidates.min { Self.rank($0.state) < Self.rank($1.state) }
            let observation = Observation(state: best?.state ?? .disconnected, panelOrientation: best?.panelOrientation, connector: best?.name)
            if best == nil {
                if missingLogged.insert(index).inserted {
                    let names = Set(connectors.map(\.name)).sorted()
                    notes.append("display \(display.id): no DRM connector matches \(Self.describe(output)) (connectors: \(names.isEmpty ? "none" : names.joined(separator: ", "))); it counts as disconnected")
                }
            } else {
                missingLogged.remove(index)
            }
            guard observation != told[index] else { continue }
            told[index] = observation
            events.append(.output(display: index, state: observation.state, panelOrientation: observation.panelOrientation))
        }
        return (events, notes)
    }

    private static func rank(_ state: OutputState) -> Int {
        switch state {
        case .on: 0
        case .off: 1
        case .unknown: 2
        case .disconnected: 3
        }
    }

    private static func describe(_ output: DisplayOutput) -> String {
        var parts: [String] = []
        if let connector = output.connector { parts.append("\"\(connector)\"") }
        if let edid = output.edid {
            // Rig text: quoted, so a control character in it cannot forge a journal line.
            let vendor = edid.vendor.map { "vendor \(ClientText.quoted($0))" }
            let product = edid.product.map { "product \($0)" }
            let serial = edid.serial.map { "serial \(ClientText.quoted($0))" }
            let fields = [vendor, product, serial].compactMap { $0 }
            parts.append("EDID \(fields.joined(separator: ", "))")
        }
        return parts.joined(separator: " with ")
    }
}
