extension DeviceModel {
    /// The model's rig: its preset with `overrides` merged in (`JSONMerge`), or its whole rig,
    /// checked like any rig; then every device entry's rig id is checked against it. Errors
    /// carry the model file's paths (`rig.overrides.cameras[0]`, `devices.cameras[1].rigCamera`).
    public func resolvedRig() throws(DocumentErrors) -> Rig {
        let document: JSONValue
        let prefix: String
        switch rig {
        case let .preset(id, overrides):
            guard let text = RigPresets.json(id), let base = try? JSONParser.parse(text) else {
                throw DocumentErrors([PathError(path: "rig.preset", message: "unknown preset \(ClientText.quoted(id))")])
            }
            document = overrides.map { JSONMerge.merge(base, $0) } ?? base
            prefix = "rig (preset \(id) with its overrides)"
        case let .full(value):
            document = value
            prefix = "rig"
        }
        let rig: Rig
        do {
            rig = try RigDecoder.decode(document)
        } catch {
            throw DocumentErrors(error.errors.map { PathError(path: $0.path.isEmpty ? prefix : "\(prefix).\($0.path)", message: $0.message) })
        }
        var errors: [PathError] = []
        func check(_ id: String, _ ids: [String], _ path: String, _ kind: String) {
            guard !ids.contains(id) else { return }
            errors.append(PathError(path: path, message: "names no \(kind) of the model's rig \(ClientText.quoted(id))\(NearestName.hint(for: id, among: ids)) (\(kind)s: \(listing(ids)))"))
        }
        for (index, camera) in cameras.enumerated() { check(camera.rigCamera, rig.cameras.map(\.id), "devices.cameras[\(index)].rigCamera", "camera") }
        for (index, sensor) in sensors.enumerated() {
            switch sensor.role {
            case let .hinge(id): check(id, rig.hinges.map(\.id), "devices.sensors[\(index)].hinge", "hinge")
            // A rig without an accelerometer pair may still list a lone accelerometer, for its
            // corrections: foldcam sets it aside (no pair, no angle) but the data is kept.
            case let .accelerometer(id) where !rig.accelerometers.isEmpty: check(id, rig.accelerometers.map(\.id), "devices.sensors[\(index)].accelerometer", "accelerometer")
            case .accelerometer: break
            }
            if sensor.corrections.swapLocation && rig.accelerometers.count != 2 {
                errors.append(PathError(path: "devices.sensors[\(index)].corrections.swapLocation", message: "swaps the labels of an accelerometer pair, but the model's rig has \(rig.accelerometers.count) accelerometers; name the sensor's rig accelerometer instead"))
            }
        }
        for (index, display) in displays.enumerated() { check(display.rigDisplay, rig.displays.map(\.id), "devices.displays[\(index)].rigDisplay", "display") }
        for (index, input) in presence.enumerated() {
            guard let cover = input.covers else { continue }
            let path = "devices.presence[\(index)].covers"
            guard let display = rig.displayIndex(cover.display) else {
                check(cover.display, rig.displays.map(\.id), cover.face == nil ? path : path + ".display", "display")
                continue
            }
            if let face = cover.face {
                let names = rig.displays[display].faces.map { RigDecoder.faceName($0, rig.panels) }
                if !names.contains(face) {
                    errors.append(PathError(path: path + ".face", message: "\(ClientText.quoted(face)) is not a face of the model's rig display \(ClientText.quoted(cover.display))\(NearestName.hint(for: face, among: names)) (its faces: \(names.joined(separator: ", ")))"))
                }
            }
        }
        guard errors.isEmpty else { throw DocumentErrors(errors) }
        return withModelInputs(rig)
    }

    /// What the model says of its inputs becomes the rig's: a switch it calls a hint votes
    /// instead of overriding, one it says to ignore is not mapped, and each USB or attribute presence
    /// input covers its display or face (a rig entry of the same id is kept as written).
    private func withModelInputs(_ decoded: Rig) -> Rig {
        var rig = decoded
        for entry in switches {
            switch (entry.kind, entry.trust) {
            case (_, .override): break
            case (.lid, .hint): rig.switches.lid?.mode = .hint
            case (.tabletMode, .hint): rig.switches.tabletMode?.mode = .hint
            case (.lid, .ignore): rig.switches.lid = nil
            case (.tabletMode, .ignore): rig.switches.tabletMode = nil
            }
        }
        for input in presence where !rig.presence.contains(where: { $0.id == input.id }) {
            guard input.usb != nil || input.attribute != nil else { continue }
            let covers = input.covers.flatMap { cover -> DisplayCover? in
                guard let display = rig.displayIndex(cover.display) else { return nil }
                guard let face = cover.face else { return DisplayCover(display: display) }
                return rig.displays[display].faces.first { RigDecoder.faceName($0, rig.panels) == face }.map { DisplayCover(display: display, face: $0) }
            }.map { [$0] } ?? []
            rig.presence.append(PresenceInput(
                id: input.id, usbIDs: input.usb.map { [$0.lowercased()] } ?? [], attribute: input.usb == nil ? input.attribute : nil,
                debounceMilliseconds: input.debounceMilliseconds ?? 400, covers: covers))
        }
        return rig
    }
}
