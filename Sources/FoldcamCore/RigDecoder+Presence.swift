extension RigDecoder {
    /// `presence`: `[{"id", "usb": ["vvvv:pppp", …], "debounceMs"?, "covers"?: [display ids], "posture"?: id}]`.
    static func decodePresence(_ root: JSONCursor, displayIDs: IDTable, postureIDs: IDTable) -> [PresenceInput] {
        guard let elements = root.field("presence")?.array(limit: RigLimits.displays * 4, kind: "presence") else { return [] }
        var seen: Set<String> = []
        return elements.compactMap { cursor -> PresenceInput? in
            guard cursor.isObject() else { return nil }
            cursor.checkKeys(["id", "usb", "debounceMs", "covers", "posture"])
            let id = cursor.required("id", "a presence input id, e.g. \"keyboard\"")?.identifier()
            var usb: [String] = []
            if let field = cursor.required("usb", "an array of USB ids \"vendor:product\" (hex, e.g. \"0b05:1b2c\")"), let texts = field.strings() {
                for text in texts {
                    let lower = text.lowercased()
                    let parts = lower.split(separator: ":", omittingEmptySubsequences: false)
                    guard parts.count == 2, parts.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isHexDigit) }) else {
                        field.collector.add(field.path, "\"\(text)\" is not a USB id (expected \"vendor:product\" in hex, e.g. \"0b05:1b2c\")")
                        return nil
                    }
                    usb.append(lower)
                }
                if usb.isEmpty { field.collector.add(field.path, "must name at least one USB id") }
            }
            let debounce = cursor.field("debounceMs")?.number(in: 0...60_000).map { Int($0) } ?? 400
            let covers = cursor.field("covers")?.array()?.compactMap { $0.reference(displayIDs, kind: "display") } ?? []
            let posture = cursor.field("posture")?.reference(postureIDs, kind: "posture")
            guard let id, !usb.isEmpty else { return nil }
            if !seen.insert(id).inserted {
                cursor.collector.add(cursor.path, "presence input \"\(id)\" is listed twice")
                return nil
            }
            if covers.isEmpty && posture == nil && cursor.field("covers") == nil && cursor.field("posture") == nil {
                cursor.collector.add(cursor.path, "does nothing: give \"covers\" (displays it lies on) or \"posture\" (the posture while it is present)")
                return nil
            }
            return PresenceInput(id: id, usbIDs: usb, debounceMilliseconds: debounce, covers: covers, posture: posture)
        }
    }
}
