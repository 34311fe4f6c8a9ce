import FoldcamCore
import FoldcamIO

extension ProbeReport {
    /// Each entry of the chosen model's `devices` with what answered for it: the device that
    /// matched, or why nothing did. In model file order: cameras, sensors, switches, presence,
    /// displays.
    public var modelEntries: [(entry: String, what: String, found: String?)] {
        guard let model = modelSelection?.model else { return [] }
        var entries: [(entry: String, what: String, found: String?)] = []
        for (index, camera) in model.cameras.enumerated() {
            let entry = "devices.cameras[\(index)]"
            let keys = [camera.usb.map { "usb \($0)" }, camera.v4l2Name.map { "V4L2 name \(ClientText.quoted($0.pattern))" }, camera.libcamera.map { "libcamera \(ClientText.quoted($0))" }].compactMap { $0 }
            let notMatchable = camera.usb == nil && camera.v4l2Name == nil
            entries.append((entry, "camera \(camera.rigCamera) (\(keys.joined(separator: ", ")))", modelFound[entry] ?? (notMatchable ? "not looked for: known only by its libcamera id, which foldcamd does not read" : nil)))
        }
        for (index, sensor) in model.sensors.enumerated() {
            let entry = "devices.sensors[\(index)]"
            let role: String
            switch sensor.role {
            case let .hinge(id): role = "hinge \(id)"
            case let .accelerometer(id): role = "accelerometer \(id)"
            }
            let keys = [sensor.iioName.map { "IIO name \(ClientText.quoted($0.pattern))" }, sensor.location.map { "location \(ClientText.quoted($0))" }].compactMap { $0 }
            entries.append((entry, "\(role) (\(keys.joined(separator: ", ")))", modelFound[entry]))
        }
        for (index, modelSwitch) in model.switches.enumerated() {
            let entry = "devices.switches[\(index)]"
            let found = switchDevices.first { device in
                (modelSwitch.kind == ModelSwitch.Kind.lid ? device.lid : device.tabletMode) && (modelSwitch.deviceName?.matches(device.name) ?? true)
            }
            entries.append((entry, "switch \(modelSwitch.kind.rawValue)\(modelSwitch.deviceName.map { " (device \(ClientText.quoted($0.pattern)))" } ?? "") trusted as \(modelSwitch.trust.rawValue)", found.map { "libinput device \(ClientText.quoted($0.name))" }))
        }
        for (index, input) in model.presence.enumerated() {
            let entry = "devices.presence[\(index)]"
            let keys = [input.usb.map { "usb \($0)" }, input.bluetooth.map { "bluetooth \($0)" }, input.inputName.map { "input device \(ClientText.quoted($0.pattern))" },
                        input.attribute.map { "attribute \($0.path)" }].compactMap { $0 }
            entries.append((entry, "presence input \(input.id) (\(keys.joined(separator: ", ")))\(input.covers.map { " covers \($0.description)" } ?? "")", modelFound[entry] ?? (input.usb == nil && input.inputName == nil && input.attribute == nil ? "not looked for: --probe looks for presence inputs by USB id, input device name or attribute" : "not attached now (a presence input is looked for, not needed)")))
        }
        for (index, display) in model.displays.enumerated() {
            entries.append(("devices.displays[\(index)]", "display \(display.rigDisplay) on \(display.connector)\(display.panelRotation.map { ", panel mounted at \($0)°" } ?? "")", "not looked for: foldcamd does not read DRM connectors"))
        }
        return entries
    }

    /// The model lines of the text listing (empty when no model search ran).
    var modelText: [String] {
        guard let selection = modelSelection else { return [] }
        var lines = ["Model:           \(selection.summary)"]
        for (path, reason) in selection.choice.notChosen where !reason.containsText("this machine reports no") && !reason.containsText("does not match") {
            lines.append("  Not chosen:    \(path): \(reason)")
        }
        for (entry, what, found) in modelEntries {
            lines.append("  \(entry): \(what): \(found ?? "NOT FOUND")")
        }
        if let model = selection.model {
            for item in model.unsupported { lines.append("  Known not to work: \(item)") }
            for item in model.unchecked { lines.append("  Not observed by the sources: \(item)") }
        }
        lines.append("")
        return lines
    }

    var modelJSON: JSONValue {
        guard let selection = modelSelection else { return .null }
        let dmi: [(String, JSONValue)] = selection.dmi.keys.sorted().map { ($0.rawValue, JSONValue.string(selection.dmi[$0]!)) }
        guard let chosen = selection.choice.chosen else {
            return .object([("id", .null), ("dmi", .object(dmi)), ("summary", .string(selection.summary))])
        }
        let matchedOn: [(String, JSONValue)] = selection.choice.matched.map { ($0.field.rawValue, JSONValue.string($0.value)) }
        let notChosen: [JSONValue] = selection.choice.notChosen.map { JSONValue.object([("file", .string($0.path)), ("reason", .string($0.reason))]) }
        let entries: [JSONValue] = modelEntries.map { JSONValue.object([("entry", .string($0.entry)), ("what", .string($0.what)), ("found", $0.found.map(JSONValue.string) ?? .null)]) }
        let notFound: [JSONValue] = modelEntries.filter { $0.found == nil }.map { JSONValue.string($0.entry) }
        let members: [(String, JSONValue)] = [
            ("id", .string(chosen.model.id)), ("name", .string(chosen.model.name)), ("file", .string(chosen.path)),
            ("matchedOn", .object(matchedOn)), ("dmi", .object(dmi)), ("notChosen", .array(notChosen)),
            ("entries", .array(entries)), ("notFound", .array(notFound)),
            ("unsupported", .array(chosen.model.unsupported.map(JSONValue.string))),
            ("summary", .string(selection.summary)),
        ]
        return .object(members)
    }
}
