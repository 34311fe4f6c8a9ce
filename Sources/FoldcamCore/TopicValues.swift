/// The full value of each topic for a state: what `state`, `directions`, and every event carry.
public enum TopicValues {
    /// One display's output in `devices`: `{id, output, state, viewable, reason?, mountRotation,
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
            return .object([("cameras", .array(devices.map { descriptor in
                var value = descriptor.json
                if let index = rig.cameraIndex(descriptor.rigCamera ?? ""), case var .object(members) = value {
                    members.append(("available", .bool(state.cameras[index].available)))
                    if let reason = state.cameras[index].unavailable { members.append(("reason", .string(reason.rawValue))) }
                    value = .object(members)
                }
                return value
            })), ("displays", .array(rig.displays.indices.map { displayEntry($0, state: state, rig: rig) }))])
        case .virtualCamera:
            return StateEncoder.virtualCamera(state.virtualCamera, rig: rig, plan: plan)
        case .readiness:
            return readiness.json
        }
    }
}
