/// Builds a `DeviceModel` from one models.d JSON file, reporting every problem with its path
/// (as `RigDecoder` does). The format is docs/devices.md's.
public enum DeviceModelDecoder {
    static let topLevelKeys = ["name", "source", "match", "rig", "devices", "unsupported", "unchecked"]
    static let deviceKeys = ["cameras", "sensors", "switches", "presence", "displays"]

    /// `id` is the file name without `.json`.
    public static func decode(json text: String, id: String) throws(DocumentErrors) -> DeviceModel {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw DocumentErrors([PathError(path: "", message: "invalid JSON: \(error)")])
        }
        let collector = ErrorCollector()
        let root = JSONCursor(value: value, path: "", collector: collector)
        let model = decodeModel(root, id: id)
        guard let model, collector.errors.isEmpty else { throw collector.reported }
        return model
    }

    private static func decodeModel(_ root: JSONCursor, id: String) -> DeviceModel? {
        guard root.isObject() else { return nil }
        root.checkKeys(topLevelKeys)
        let name = root.required("name", "the machine's name")?.string() ?? id
        var sources: [String] = []
        if let cursor = root.required("source", "a public citation, or a list of them") {
            if case .string = cursor.value { sources = cursor.string().map { [$0] } ?? [] } else { sources = cursor.strings() ?? [] }
            if sources.isEmpty || sources.contains(where: \.isEmpty) { collector(root).add(cursor.path, "must cite at least one public source (a URL with its commit or issue)") }
        }
        let dmi = decodeMatch(root.required("match", "an object with \"dmi\"")) ?? [:]
        let rig = decodeRig(root.required("rig", "{\"preset\": ID, \"overrides\": {...}} or a whole rig"))
        var model = DeviceModel(id: id, name: name, sources: sources, dmi: dmi, rig: rig ?? .full(.null))
        if let devices = root.field("devices"), devices.isObject() {
            devices.checkKeys(deviceKeys)
            model.cameras = devices.field("cameras")?.array()?.compactMap(decodeCamera) ?? []
            model.sensors = devices.field("sensors")?.array()?.compactMap(decodeSensor) ?? []
            model.switches = devices.field("switches")?.array()?.compactMap(decodeSwitch) ?? []
            model.presence = devices.field("presence")?.array()?.compactMap(decodePresence) ?? []
            model.displays = devices.field("displays")?.array()?.compactMap(decodeDisplay) ?? []
        }
        model.unsupported = root.field("unsupported")?.strings() ?? []
        model.unchecked = root.field("unchecked")?.strings() ?? []
        return model
    }

    private static func collector(_ cursor: JSONCursor) -> ErrorCollector { cursor.collector }

    private static func decodeMatch(_ cursor: JSONCursor?) -> [DMIField: Glob]? {
        guard let cursor, cursor.isObject() else { return nil }
        cursor.checkKeys(["dmi"])
        guard let dmi = cursor.required("dmi", "globs over \(DMIField.allCases.map(\.rawValue).joined(separator: ", "))"), let members = dmi.members() else { return nil }
        var fields: [DMIField: Glob] = [:]
        let names = DMIField.allCases.map(\.rawValue)
        for (key, value) in members {
            guard let field = DMIField(rawValue: key) else {
                cursor.collector.add(value.path, "unknown DMI field\(NearestName.hint(for: key, among: names)) (expected one of: \(names.joined(separator: ", ")))")
                continue
            }
            guard let pattern = value.string() else { continue }
            if pattern.isEmpty || pattern.allSatisfy({ $0 == "*" }) {
                cursor.collector.add(value.path, "\(ClientText.quoted(pattern)) matches every machine: give the value the machine reports, or leave the field out")
                continue
            }
            fields[field] = Glob(pattern)
        }
        if members.isEmpty {
            cursor.collector.add(dmi.path, "no DMI field given: a model must name its machine (e.g. \"product_name\")")
        }
        return fields
    }

    private static func decodeRig(_ cursor: JSONCursor?) -> ModelRig? {
        guard let cursor, cursor.isObject() else { return nil }
        guard let preset = cursor.field("preset") else { return .full(cursor.value) }
        cursor.checkKeys(["preset", "overrides"])
        guard let id = preset.string() else { return nil }
        guard RigPresets.json(id) != nil else {
            preset.collector.add(preset.path, "unknown preset \(ClientText.quoted(id))\(NearestName.hint(for: id, among: RigPresets.ids)) (presets: \(RigPresets.ids.joined(separator: ", ")))")
            return nil
        }
        let overrides = cursor.field("overrides")
        if let overrides, !overrides.isObject() { return nil }
        return .preset(id, overrides: overrides?.value)
    }

    private static func usbID(_ cursor: JSONCursor?) -> String? {
        guard let cursor, let text = cursor.string() else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let hex = parts.count == 2 && parts.allSatisfy { $0.count == 4 && $0.allSatisfy(\.isHexDigit) }
        guard hex else {
            cursor.collector.add(cursor.path, "\(ClientText.quoted(text)) is not a USB id (expected vendor:product in hex, e.g. \"04f2:b5c1\")")
            return nil
        }
        return text.lowercased()
    }

    private static func rotation(_ cursor: JSONCursor?) -> Int? {
        guard let cursor, let degrees = cursor.integer() else { return nil }
        guard [0, 90, 180, 270].contains(degrees) else {
            cursor.collector.add(cursor.path, "\(degrees) is not 0, 90, 180 or 270")
            return nil
        }
        return degrees
    }

    private static func decodeCamera(_ cursor: JSONCursor) -> ModelCamera? {
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["rigCamera", "usb", "v4l2Name", "libcamera", "rotation", "mirrored", "subdevice"])
        guard let rigCamera = cursor.required("rigCamera", "the rig camera's id")?.string() else { return nil }
        let camera = ModelCamera(rigCamera: rigCamera, usb: usbID(cursor.field("usb")), v4l2Name: cursor.field("v4l2Name")?.string().map(Glob.init),
                                 libcamera: cursor.field("libcamera")?.string(), rotation: rotation(cursor.field("rotation")),
                                 subdevice: cursor.field("subdevice")?.string().map(Glob.init), mirrored: cursor.field("mirrored")?.bool())
        if camera.usb == nil && camera.v4l2Name == nil && camera.libcamera == nil && cursor.field("usb") == nil {
            cursor.collector.add(cursor.path, "says nothing to match the camera by (give \"usb\", \"v4l2Name\" or \"libcamera\")")
        }
        return camera
    }

    private static func decodeSensor(_ cursor: JSONCursor) -> ModelSensor? {
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["hinge", "accelerometer", "iioName", "location", "corrections"])
        let role: ModelSensor.Role
        switch (cursor.field("hinge")?.string(), cursor.field("accelerometer")?.string()) {
        case let (hinge?, nil): role = .hinge(hinge)
        case let (nil, accelerometer?): role = .accelerometer(accelerometer)
        default:
            cursor.collector.add(cursor.path, "give exactly one of \"hinge\" (a rig hinge id) or \"accelerometer\" (a rig accelerometer id)")
            return nil
        }
        var sensor = ModelSensor(role: role, iioName: cursor.field("iioName")?.string().map(Glob.init), location: cursor.field("location")?.string())
        if sensor.iioName == nil && sensor.location == nil {
            cursor.collector.add(cursor.path, "says nothing to match the sensor by (give \"iioName\" and/or \"location\")")
        }
        if let corrections = cursor.field("corrections"), corrections.isObject() {
            corrections.checkKeys(["mountMatrix", "swapLocation", "sign", "offset", "stuckAt"])
            sensor.corrections.mountMatrix = corrections.field("mountMatrix")?.numbers(count: 9)
            sensor.corrections.swapLocation = corrections.field("swapLocation")?.bool() ?? false
            if let sign = corrections.field("sign"), let value = sign.integer() {
                if value == 1 || value == -1 { sensor.corrections.sign = value } else { sign.collector.add(sign.path, "\(value) is not 1 or -1") }
            }
            sensor.corrections.offset = corrections.field("offset")?.number(in: -360...360) ?? 0
            sensor.corrections.stuckAt = corrections.field("stuckAt")?.number()
        }
        return sensor
    }

    private static func choice<T: RawRepresentable & CaseIterable>(_ cursor: JSONCursor?, _ type: T.Type) -> T? where T.RawValue == String {
        guard let cursor, let text = cursor.string() else { return nil }
        let names = T.allCases.map(\.rawValue)
        guard let value = T(rawValue: text) else {
            cursor.collector.add(cursor.path, "unknown value \(ClientText.quoted(text))\(NearestName.hint(for: text, among: names)) (expected one of: \(names.joined(separator: ", ")))")
            return nil
        }
        return value
    }

    private static func decodeSwitch(_ cursor: JSONCursor) -> ModelSwitch? {
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["switch", "deviceName", "trust"])
        guard let kind = choice(cursor.required("switch", "lid or tabletMode"), ModelSwitch.Kind.self) else { return nil }
        let trust = cursor.field("trust").flatMap { choice($0, ModelSwitch.Trust.self) } ?? .override
        return ModelSwitch(kind: kind, deviceName: cursor.field("deviceName")?.string().map(Glob.init), trust: trust)
    }

    private static func decodePresence(_ cursor: JSONCursor) -> ModelPresence? {
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["id", "usb", "bluetooth", "inputName", "attribute", "covers", "debounceMilliseconds"])
        guard let id = cursor.required("id", "a name for the input, e.g. \"keyboard\"")?.identifier() else { return nil }
        var debounce: Int?
        if let cursor = cursor.field("debounceMilliseconds"), let value = cursor.integer() {
            if (0...10_000).contains(value) { debounce = value } else { cursor.collector.add(cursor.path, "\(value) is out of range (0 to 10000)") }
        }
        let attribute = cursor.field("attribute").flatMap(RigDecoder.platformAttribute)
        if attribute != nil, cursor.field("usb") != nil {
            cursor.collector.add(cursor.path, "gives both \"usb\" and \"attribute\": a presence input follows one device; list two inputs")
        }
        return ModelPresence(id: id, usb: usbID(cursor.field("usb")), bluetooth: usbID(cursor.field("bluetooth")), inputName: cursor.field("inputName")?.string().map(Glob.init),
                             attribute: attribute, covers: cursor.field("covers").flatMap(decodeCover), debounceMilliseconds: debounce)
    }

    /// A rig display id, or `{"display", "face"}` (checked against the rig in `resolvedRig`).
    private static func decodeCover(_ cursor: JSONCursor) -> ModelCover? {
        if case .string = cursor.value { return cursor.string().map { ModelCover(display: $0) } }
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["display", "face"])
        guard let display = cursor.required("display", "the rig display's id")?.string(),
              let face = cursor.required("face", "one of that display's faces, e.g. \"bottom.A\"")?.string() else { return nil }
        return ModelCover(display: display, face: face)
    }

    private static func decodeDisplay(_ cursor: JSONCursor) -> ModelDisplay? {
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["rigDisplay", "connector", "panelRotation"])
        guard let display = cursor.required("rigDisplay", "the rig display's id")?.string(),
              let connector = cursor.required("connector", "the DRM connector, e.g. \"eDP-1\"")?.string() else { return nil }
        return ModelDisplay(rigDisplay: display, connector: connector, panelRotation: rotation(cursor.field("panelRotation")))
    }
}
