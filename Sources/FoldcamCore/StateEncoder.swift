/// The state object foldcam shows the world: the scenario runner prints it and the daemon
/// serves it on its socket. Keys and order are part of the protocol (docs/protocol.md).
public enum StateEncoder {
    public static func encode(_ state: FoldState, rig: Rig, plan: VirtualCameraPlan) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("timeMs", .int(state.timeMilliseconds)),
            ("posture", .string(rig.postures[state.posture].id)),
            ("hinges", hinges(state, rig: rig)),
            ("hingeSources", .object(rig.hinges.indices.map { (rig.hinges[$0].id, .string(state.hingeSources[$0].rawValue)) })),
            ("viewedDisplay", .string(rig.displays[state.viewedDisplay].id)),
            ("pinnedDisplay", state.pinnedDisplay.map { .string(rig.displays[$0].id) } ?? .null),
            ("displays", .object(rig.displays.indices.map { (rig.displays[$0].id, display($0, state, rig: rig)) })),
            ("cameras", .object(rig.cameras.indices.map { (rig.cameras[$0].id, camera(state.cameras[$0])) })),
            ("virtualCamera", virtualCamera(state.virtualCamera, rig: rig, plan: plan)),
            ("gravity", state.gravity.map { vector($0) } ?? .null),
            ("screens", .object(rig.displays.indices.map { (rig.displays[$0].id, TopicValues.screen(state.screens[$0], output: rig.displays[$0].output?.connector)) })),
        ]
        // Only while a sensor is set aside: nothing is said of checks that found nothing.
        if !state.suspectSensors.isEmpty { members.append(("suspectSensors", suspectSensors(state, rig: rig))) }
        // Only for rigs with presence inputs: each one's id and whether it counts as present.
        if !rig.presence.isEmpty { members.append(("presence", .object(rig.presence.indices.map { (rig.presence[$0].id, .bool(state.present[$0])) }))) }
        return .object(members)
    }

    /// Each set-aside sensor: its name and kind, the fault, and what was seen.
    public static func suspectSensors(_ state: FoldState, rig: Rig) -> JSONValue {
        .array(state.suspectSensors.map { suspicion in
            .object([
                ("sensor", .string(suspicion.sensor.name(in: rig))),
                ("kind", .string(suspicion.sensor.kind)),
                ("fault", .string(suspicion.fault.rawValue)),
                ("detail", .string(suspicion.detail)),
            ])
        })
    }

    public static func hinges(_ state: FoldState, rig: Rig) -> JSONValue {
        .object(rig.hinges.indices.map { (rig.hinges[$0].id, .double(rounded(state.hingeAngles[$0], places: 2))) })
    }

    /// One display's direction map. θ (informational, moving with every hinge reading) is left
    /// out of the socket's `directions` values so that each event carries the topic's whole
    /// current value: the daemon publishes on decisions, not on every degree.
    public static func display(_ index: Int, _ state: FoldState, rig: Rig, includeTheta: Bool = true) -> JSONValue {
        let display = state.displays[index]
        let cameraIDs = { (indices: [Int]) in JSONValue.array(indices.map { .string(rig.cameras[$0].id) }) }
        var pairs: [(String, JSONValue)] = []
        for camera in display.forward + display.backward {
            guard let pair = display.pairs[camera] else { continue }
            var members: [(String, JSONValue)] = [("forward", .bool(pair.forward))]
            if includeTheta { members.append(("theta", .double(rounded(pair.theta, places: 1)))) }
            members += [
                ("mirror", .bool(pair.mirror)),
                ("previewRotation", .int(pair.previewRotation)),
                ("captureRotation", .int(state.cameras[camera].captureRotation)),
            ]
            pairs.append((rig.cameras[camera].id, .object(members)))
        }
        var members: [(String, JSONValue)] = [("occluded", .bool(display.occluded)), ("viewable", .bool(display.viewable))]
        if let reason = display.unviewable { members.append(("reason", .string(reason.rawValue))) }
        if !display.covered.isEmpty { members.append(("covered", covered(display, rig: rig))) }
        members += output(index, display, rig: rig)
        return .object(members + [
            ("screenRotation", .int(state.screenRotations[index])),
            ("forward", cameraIDs(display.forward)),
            ("backward", cameraIDs(display.backward)),
            ("cameras", .object(pairs)),
        ])
    }

    /// Only while part of a display is covered: each covered face and its rectangle on the
    /// display, in the panel's own coordinates as fractions (docs/protocol.md).
    public static func covered(_ display: DisplayState, rig: Rig) -> JSONValue {
        .array(display.covered.map { part in
            .object([
                ("face", .string(RigDecoder.faceName(part.face, rig.panels))),
                ("x", .double(rounded(part.rect.x, places: 4))),
                ("y", .double(rounded(part.rect.y, places: 4))),
                ("width", .double(rounded(part.rect.width, places: 4))),
                ("height", .double(rounded(part.rect.height, places: 4))),
            ])
        })
    }

    /// A display's output as the state and `devices` show it (docs/protocol.md).
    public static func output(_ index: Int, _ display: DisplayState, rig: Rig) -> [(String, JSONValue)] {
        [
            ("output", rig.displays[index].output?.connector.map { .string($0) } ?? .null),
            ("outputState", .string(display.outputState.rawValue)),
            ("mountRotation", .int(display.mountRotation)),
            ("mountRotationSource", .string(display.mountRotationSource.rawValue)),
        ]
    }

    static func camera(_ camera: CameraState) -> JSONValue {
        var members: [(String, JSONValue)] = [("available", .bool(camera.available))]
        if let reason = camera.unavailable { members.append(("reason", .string(reason.rawValue))) }
        members.append(("captureRotation", .int(camera.captureRotation)))
        return .object(members)
    }

    public static func virtualCamera(_ virtualCamera: VirtualCameraState, rig: Rig, plan: VirtualCameraPlan) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("source", virtualCamera.source.map { .string(rig.cameras[$0].id) } ?? .null)
        ]
        if let reason = virtualCamera.noSourceReason { members.append(("reason", .string(reason.rawValue))) }
        members.append(("format", plan.format.map(format) ?? .null))
        members.append(("depth", .bool(plan.depth)))
        members.append(("pool", .array(plan.pool.map { .string(rig.cameras[$0].id) })))
        return .object(members)
    }

    public static func format(_ mode: CameraMode) -> JSONValue {
        .object([
            ("pixelFormat", .string(mode.pixelFormat)),
            ("width", .int(mode.width)),
            ("height", .int(mode.height)),
            ("fps", mode.fps == mode.fps.rounded() ? .int(Int(mode.fps)) : .double(mode.fps)),
        ])
    }

    static func vector(_ v: Vector3) -> JSONValue {
        .array([.double(rounded(v.x, places: 4)), .double(rounded(v.y, places: 4)), .double(rounded(v.z, places: 4))])
    }

    /// Rounds for display; also turns -0.0 into 0.0 so output is stable.
    static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let result = (value * scale).rounded() / scale
        return result == 0 ? 0 : result
    }
}
