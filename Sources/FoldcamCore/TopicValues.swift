/// The full value of each topic for a state: what `state`, `directions`, and every event carry.
public enum TopicValues {
    /// One display's output in `devices`: `{id, output, state, viewable, reason?, covered?, mountRotation,
    /// mountRotationSource}` (docs/protocol.md).
    static func displayEntry(_ index: Int, state: FoldState, rig: Rig) -> JSONValue {
        let display = state.displays[index]
        var members: [(String, JSONValue)] = [
            ("id", .string(rig.displays[index].id)),
            ("output", rig.displays[index].output?.connector.map { .string($0) } ?? .null),
            ("state", .string(display.outputState.rawValue)),
            ("viewable", .bool(display.viewable)),
        ]
        if let reason = display.unviewable { members.append(("reason", .string(reason.rawValue))) }
        if !display.covered.isEmpty { members.append(("covered", StateEncoder.covered(display, rig: rig))) }
        members += [
            ("mountRotation", .int(display.mountRotation)),
            ("mountRotationSource", .string(display.mountRotationSource.rawValue)),
        ]
        return .object(members)
    }

    public static func value(_ topic: Topic, state: FoldState, rig: Rig, plan: VirtualCameraPlan, devices: [CameraDescriptor], readiness: Readiness) -> JSONValue {
        switch topic {
        case .directions:
            return .object([
                ("viewedDisplay", .string(rig.displays[state.viewedDisplay].id)),
                ("displays", .object(rig.displays.indices.map { (rig.displays[$0].id, StateEncoder.display($0, state, rig: rig, includeTheta: false)) })),
            ])
        case .posture:
            return .object([
                ("posture", .string(rig.postures[state.posture].id)),
                ("hinges", StateEncoder.hinges(state, rig: rig)),
                ("viewedDisplay", .string(rig.displays[state.viewedDisplay].id)),
                ("pinnedDisplay", state.pinnedDisplay.map { .string(rig.displays[$0].id) } ?? .null),
            ])
        case .devices:
            var members: [(String, JSONValue)] = [("cameras", .array(devices.map { descriptor in
                var value = descriptor.json
                if let index = rig.cameraIndex(descriptor.rigCamera ?? ""), case var .object(members) = value {
                    members.append(("available", .bool(state.cameras[index].available)))
                    if let reason = state.cameras[index].unavailable { members.append(("reason", .string(reason.rawValue))) }
                    value = .object(members)
                }
                return value
            })), ("displays", .array(rig.displays.indices.map { displayEntry($0, state: state, rig: rig) }))]
            if !state.suspectSensors.isEmpty { members.append(("suspectSensors", StateEncoder.suspectSensors(state, rig: rig))) }
            return .object(members)
        case .virtualCamera:
            return StateEncoder.virtualCamera(state.virtualCamera, rig: rig, plan: plan)
        case .readiness:
            return readiness.json
        case .screens:
            return .object([("displays", .object(rig.displays.indices.map { (rig.displays[$0].id, screen(state.screens[$0], output: rig.displays[$0].output?.connector)) }))])
        }
    }

    /// One display's recommendation (docs/protocol.md, "screens").
    /// `output`: the display's DRM connector when the rig names one, so a follower needs no map.
    static func screen(_ advice: ScreenAdvice, output: String?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("output", output.map { .string($0) } ?? .null),
            ("rotation", advice.rotation.map { .int($0) } ?? .null),
            ("transform", advice.transform.map { .int($0) } ?? .null),
        ]
        if let reason = advice.noRotationReason { members.append(("rotationReason", .string(reason.rawValue))) }
        members.append(("on", .bool(advice.on)))
        if let reason = advice.offReason { members.append(("offReason", .string(reason.rawValue))) }
        return .object(members)
    }
}
