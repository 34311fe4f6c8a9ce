import FoldcamCore

extension ProbeReport {
    /// `--probe --json`: the same facts; descriptors exactly as the socket's `devices` sends them.
    public var json: JSONValue {
        let members: [(String, JSONValue)] = [
            ("rig", .string(rig.id)),
            ("model", modelJSON),
            ("cameras", .array(cameras.map(cameraJSON))),
            ("missingRigCameras", .array(missingRigCameras.map { .string($0) })),
            ("sensors", .array(sensors.map(sensorJSON))),
            ("sensorProxy", sensorProxy.map { .string($0.isRunning ? "running" : $0 == .notRunning ? "not running" : "unknown") } ?? .null),
            ("switches", .array(switches.map { .string($0) })),
            ("switchesNote", switchesNote.map { .string($0) } ?? .null),
            ("sinks", .array(zip(sinks, sinkLines).map { .object([("kind", .string($0.rawValue)), ("detail", .string($1))]) })),
            ("needs", .array(needs.map(needJSON))),
            ("complete", .bool(lacking.isEmpty)),
        ]
        return .object(members)
    }

    func needJSON(_ need: Need) -> JSONValue {
        .object([
            ("kind", .string(need.kind.rawValue)), ("id", .string(need.id)), ("status", .string(need.status.rawValue)),
            ("needed", .bool(need.needed)), ("node", need.node.map { .string($0) } ?? .null), ("property", .string(need.property)),
            ("call", need.call.map { .string($0) } ?? .null), ("detail", .string(need.detail)),
            ("poolExclusion", need.poolExclusion.map { .string($0) } ?? .null),
        ])
    }

    func cameraJSON(_ camera: CameraNode) -> JSONValue {
        var members: [(String, JSONValue)] = [("node", .string(camera.node)), ("syspath", .string(camera.syspath))]
        switch camera.entry {
        case let .camera(descriptor):
            members.append(("status", .string("camera")))
            members.append(("descriptor", descriptor.json))
        case let .skipped(reason):
            members.append(("status", .string("skipped")))
            members.append(("reason", .string(reason)))
        case let .busy(rigCamera, error):
            members.append(("status", .string("busy")))
            members.append(("error", .string(error.description)))
            let id: JSONValue = rigCamera.map { .string(rig.cameras[$0].id) } ?? .null
            members.append(("rigCamera", id))
        case let .failed(error):
            members.append(("status", .string("failed")))
            members.append(("error", .string(error.description)))
        }
        return .object(members)
    }

    func sensorJSON(_ sensor: Sensor) -> JSONValue {
        var members: [(String, JSONValue)] = [("syspath", .string(sensor.syspath)), ("name", .string(sensor.name))]
        switch sensor.outcome {
        case let .hinge(hinge, matchedBy):
            members.append(("kind", .string("hinge")))
            members.append(("hinge", .string(rig.hinges[hinge].id)))
            members.append(("matchedBy", .string(matchedBy)))
        case let .accelerometer(index, location, _, matrixSource):
            members.append(("kind", .string("accelerometer")))
            members.append(("accelerometer", .string(rig.accelerometers[index].id)))
            members.append(("location", .string(location)))
            members.append(("mountMatrixSource", .string(matrixSource)))
        case let .skipped(reason):
            members.append(("kind", .string("skipped")))
            members.append(("reason", .string(reason)))
        }
        switch sensor.transport {
        case .buffer?:
            members.append(("readBy", .string("buffer")))
        case let .polled(rate)?:
            members.append(("readBy", .string("polling")))
            members.append(("pollMilliseconds", .int(rate.milliseconds)))
            if let hertz = rate.samplingHertz { members.append(("samplingHertz", .double(hertz))) }
        case nil:
            break
        }
        if let holder = sensor.sharedWith { members.append(("sharedWith", .string(holder))) }
        switch sensor.reading {
        case let .hingeAngle(_, degrees)?:
            members.append(("angle", .double(degrees)))
        case let .accelerometer(_, vector)?:
            let values: [JSONValue] = [.double(vector.x), .double(vector.y), .double(vector.z)]
            members.append(("gravity", .array(values)))
        default:
            break
        }
        return .object(members)
    }
}
