extension RigDecoder {
    /// `presence`: `[{"id", "usb": ["vvvv:pppp", …] | "attribute": {"device", "name"}, "debounceMs"?,
    /// "covers"?: [display id | {"display", "face"}], "posture"?: id}]`.
    static func decodePresence(_ root: JSONCursor, displays: [Display], displayIDs: IDTable, panels: [Panel], postureIDs: IDTable) -> [PresenceInput] {
        guard let elements = root.field("presence")?.array(limit: RigLimits.displays * 4, kind: "presence") else { return [] }
        var seen: Set<String> = []
        return elements.compactMap { cursor -> PresenceInput? in
            guard cursor.isObject() else { return nil }
            cursor.checkKeys(["id", "usb", "attribute", "debounceMs", "covers", "posture"])
            let id = cursor.required("id", "a presence input id, e.g. \"keyboard\"")?.identifier()
            let source = decodeSource(cursor)
            let debounce = cursor.field("debounceMs")?.number(in: 0...60_000).map { Int($0) } ?? 400
            let covers = cursor.field("covers")?.array()?.compactMap { decodeCover($0, displays: displays, displayIDs: displayIDs, panels: panels) } ?? []
            let posture = cursor.field("posture")?.reference(postureIDs, kind: "posture")
            guard let id, let source else { return nil }
            if !seen.insert(id).inserted {
                cursor.collector.add(cursor.path, "presence input \"\(id)\" is listed twice")
                return nil
            }
            if covers.isEmpty && posture == nil && cursor.field("covers") == nil && cursor.field("posture") == nil {
                cursor.collector.add(cursor.path, "does nothing: give \"covers\" (displays, or faces of displays, it lies on) or \"posture\" (the posture while it is present)")
                return nil
            }
            return PresenceInput(id: id, usbIDs: source.usb, attribute: source.attribute, debounceMilliseconds: debounce, covers: covers, posture: posture)
        }
    }

    /// Exactly one of `usb` and `attribute`.
    private static func decodeSource(_ cursor: JSONCursor) -> (usb: [String], attribute: PlatformAttribute?)? {
        let usbField = cursor.field("usb")
        let attributeField = cursor.field("attribute")
        switch (usbField, attributeField) {
        case (nil, nil):
            cursor.collector.add(cursor.path, "says no device: give \"usb\" (USB ids \"vendor:product\", e.g. [\"0b05:1b2c\"]) or \"attribute\" (a platform device's sysfs attribute, e.g. {\"device\": \"thinkpad_acpi\", \"name\": \"keyboard_attached_on_screen\"})")
            return nil
        case (_?, _?):
            cursor.collector.add(cursor.path, "gives both \"usb\" and \"attribute\": a presence input follows one device; list two inputs")
            return nil
        case let (field?, nil):
            guard let usb = usbIDs(field) else { return nil }
            return (usb, nil)
        case let (nil, field?):
            return platformAttribute(field).map { ([], $0) }
        }
    }

    private static func usbIDs(_ field: JSONCursor) -> [String]? {
        guard let texts = field.strings() else { return nil }
        var usb: [String] = []
        for text in texts {
            let lower = text.lowercased()
            let parts = lower.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isHexDigit) }) else {
                field.collector.add(field.path, "\"\(text)\" is not a USB id (expected \"vendor:product\" in hex, e.g. \"0b05:1b2c\")")
                return nil
            }
            usb.append(lower)
        }
        if usb.isEmpty {
            field.collector.add(field.path, "must name at least one USB id")
            return nil
        }
        return usb
    }

    /// `{"device", "name"}`: each one sysfs name (no path).
    static func platformAttribute(_ field: JSONCursor) -> PlatformAttribute? {
        guard field.isObject() else { return nil }
        field.checkKeys(["device", "name"])
        func name(_ key: String, _ example: String) -> String? {
            guard let cursor = field.required(key, example), let text = cursor.string() else { return nil }
            if let problem = PlatformAttribute.problem(text) {
                cursor.collector.add(cursor.path, "\(ClientText.quoted(text)) \(problem)")
                return nil
            }
            return text
        }
        let device = name("device", "the platform device's name under /sys/devices/platform, e.g. \"thinkpad_acpi\"")
        let attribute = name("name", "the attribute's file name, e.g. \"keyboard_attached_on_screen\"")
        guard let device, let attribute else { return nil }
        return PlatformAttribute(device: device, name: attribute)
    }

    /// A display id (the whole display), or `{"display", "face"}` (that face of it).
    private static func decodeCover(_ cursor: JSONCursor, displays: [Display], displayIDs: IDTable, panels: [Panel]) -> DisplayCover? {
        if case .string = cursor.value {
            return display(cursor, displayIDs).map { DisplayCover(display: $0) }
        }
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["display", "face"])
        guard let display = cursor.required("display", "the display's id").flatMap({ display($0, displayIDs) }),
              let faceCursor = cursor.required("face", "one of the display's faces, e.g. \"\(faceName(displays[display].faces[0], panels))\""),
              let text = faceCursor.string() else { return nil }
        let faces = displays[display].faces
        let names = faces.map { faceName($0, panels) }
        guard let index = names.firstIndex(of: text) else {
            faceCursor.collector.add(faceCursor.path, "\(ClientText.quoted(text)) is not a face of display \(ClientText.quoted(displays[display].id))\(NearestName.hint(for: text, among: names)) (its faces: \(names.joined(separator: ", ")))")
            return nil
        }
        return DisplayCover(display: display, face: faces[index])
    }

    /// A display id; an unknown one is refused with the nearest written id.
    private static func display(_ cursor: JSONCursor, _ ids: IDTable) -> Int? {
        guard let text = cursor.string() else { return nil }
        guard ids.declared.contains(text) else {
            cursor.collector.add(cursor.path, "unknown display \(ClientText.quoted(text))\(NearestName.hint(for: text, among: ids.declared)) (displays: \(listing(ids.declared)))")
            return nil
        }
        return ids.resolve(text, at: cursor, kind: "display")
    }

    static func faceName(_ face: FaceRef, _ panels: [Panel]) -> String { "\(panels[face.panel].id).\(face.side.rawValue)" }
}
