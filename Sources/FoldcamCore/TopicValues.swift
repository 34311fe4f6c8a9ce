/// The full value of each topic for a state: what `state`, `directions`, and every event carry.
public enum TopicValues {
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
            }))]
            if !state.suspectSensors.isEmpty { members.append(("suspectSensors", StateEncoder.suspectSensors(state, rig: rig))) }
            return .object(members)
        case .virtualCamera:
            return StateEncoder.virtualCamera(state.virtualCamera, rig: rig, plan: plan)
        case .readiness:
            return readiness.json
        }
    }
}
