import FoldcamCore

extension ProbeReport {
    /// The human listing: one block per device, each line saying what and why.
    public var text: String {
        var lines: [String] = ["Rig:             \(rig.id) (cameras: \(rig.cameras.map(\.id).joined(separator: ", ")))", ""]
        func line(_ label: String, _ value: String) { lines.append((label + ":").padding(16) + " " + value) }
        lines += modelText
        for camera in cameras {
            switch camera.entry {
            case let .camera(descriptor):
                line("Camera", "\(camera.node)  \(descriptor.localizedName)")
                let provenance = descriptor.provenance
                line("  Rig camera", descriptor.rigCamera.map { "\($0) via \(provenance?.matchedBy ?? "?")" } ?? "none (no FOLDCAM_CAMERA property): an extra camera")
                line("  Unique ID", descriptor.uniqueID)
                line("  Driver", "\(provenance?.driver ?? "?") (\(provenance?.busInfo ?? "?"))")
                line("  Position", "\(descriptor.position) (from \(provenance?.positionSource ?? "?"))")
                line("  Rotation", "\(descriptor.sensorRotation)° clockwise (from \(provenance?.rotationSource ?? "?"))")
                line("  Type", "\(descriptor.deviceType); media \(descriptor.mediaTypes.joined(separator: ", "))\(CameraKind.isInfrared(descriptor.modes.map(\.pixelFormat)) ? "; infrared (every format greyscale)" : "")")
                if let index = descriptor.rigCamera.flatMap(rig.cameraIndex), let why = VirtualCameraPlan.exclusion(of: index, in: rig) {
                    line("  Pool", "kept out of the virtual camera's pool: \(why)")
                }
                line("  Formats", Self.formatSummary(descriptor.modes))
                line("  Controls", provenance?.controls.isEmpty == false ? provenance!.controls.joined(separator: ", ") : "none of hflip, vflip, rotate")
                if let sensor = provenance?.sensor { line("  Sensor", "\(sensor), linked to it in the media graph") }
                if let index = descriptor.rigCamera.flatMap(rig.cameraIndex), let match = rig.cameras[index].pipewire {
                    line("  PipeWire", Self.pipewireText(match))
                }
            case let .skipped(reason):
                line("Skipped", "\(camera.node): \(reason)")
            case let .busy(rigCamera, error):
                line("Busy", "\(error)\(rigCamera.map { " (rig camera \(rig.cameras[$0].id))" } ?? "")")
            case let .failed(error):
                line("Error", error.description)
            }
            lines.append("")
        }
        if cameras.isEmpty { lines += ["Cameras:         no video4linux nodes", ""] }
        if let sensorProxy { line("iio-sensor-proxy", sensorProxy.description) }
        for sensor in sensors {
            switch sensor.outcome {
            case let .hinge(hinge, matchedBy):
                line("Hinge sensor", "\(sensor.syspath) (\(sensor.name))")
                line("  Hinge", "\(rig.hinges[hinge].id) via \(matchedBy)")
                line("  Reading", Self.readingText(sensor.reading))
                line("  Read", Self.transportText(sensor.transport))
                if let holder = sensor.sharedWith { line("  Shared with", "\(holder): its IIO buffer is left to it") }
            case let .accelerometer(index, location, _, matrixSource):
                line("Accelerometer", "\(sensor.syspath) (\(sensor.name))")
                line("  Placed", "\(rig.accelerometers[index].id) via ACCEL_LOCATION=\(location)")
                line("  Mount matrix", matrixSource)
                line("  Reading", Self.readingText(sensor.reading))
                line("  Read", Self.transportText(sensor.transport))
                if let holder = sensor.sharedWith { line("  Shared with", "\(holder): its IIO buffer is left to it") }
            case let .skipped(reason):
                line("IIO skipped", "\(sensor.syspath) (\(sensor.name)): \(reason)")
            }
            lines.append("")
        }
        for device in switches { line("Switch device", device) }
        if let switchesNote { line("Switches", switchesNote) }
        for sink in sinkLines { line("Sink", sink) }
        lines += ["", "What rig \(rig.id) needs:"]
        let needs = self.needs
        let width = needs.map { $0.kind.rawValue.count + 1 + $0.id.count }.max() ?? 0
        for need in needs {
            let what = "\(need.kind.rawValue) \(need.id)"
            let optional = need.needed || need.status == .found || need.status == .busy ? "" : "not needed: "
            lines.append("  " + what.padding(width) + "  " + need.status.rawValue.padding(7) + "  " + optional + need.detail)
            if let why = need.poolExclusion {
                lines.append("  " + "".padding(width) + "           kept out of the virtual camera's pool: " + why)
            }
        }
        let lacking = self.lacking
        lines.append(lacking.isEmpty
            ? "Everything rig \(rig.id) needs was found."
            : "Missing or failed: \(lacking.map { "\($0.kind.rawValue) \($0.id)" }.joined(separator: ", ")) (exit status \(Self.needsMissingExitCode))")
        return lines.joined(separator: "\n")
    }

    /// "YUYV 1920x1080@60, 640x480@30; MJPG ..." — sizes grouped by pixel format.
    static func formatSummary(_ modes: [CameraMode]) -> String {
        guard !modes.isEmpty else { return "none listed" }
        var order: [String] = []
        var sizes: [String: [String]] = [:]
        for mode in modes {
            if sizes[mode.pixelFormat] == nil { order.append(mode.pixelFormat) }
            sizes[mode.pixelFormat, default: []].append("\(mode.width)x\(mode.height)@\(mode.fps == mode.fps.rounded() ? String(Int(mode.fps)) : String(mode.fps))")
        }
        return order.map { "\($0) \(sizes[$0]!.joined(separator: ", "))" }.joined(separator: "; ")
    }

    /// How the daemon would read the sensor: what an idle daemon wakes up for.
    static func transportText(_ transport: Transport?) -> String {
        switch transport {
        case .buffer?: return "from its IIO buffer (no poll tick)"
        case let .polled(rate)?: return "polled \(rate.description)"
        case nil: return "not in use"
        }
    }

    static func readingText(_ reading: InputEvent?) -> String {
        switch reading {
        case let .hingeAngle(_, degrees)?: return "\((degrees * 10).rounded() / 10)°"
        case let .accelerometer(_, vector)?: return "gravity (\(vector.x), \(vector.y), \(vector.z)) in the panel frame"
        default: return "none (see the warnings above)"
        }
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

extension ProbeReport {
    /// What a rig camera's `pipewire` match asks of a node, and that --probe cannot check it.
    static func pipewireText(_ match: PipeWireMatch) -> String {
        let wanted = match.requirements.map { "\($0.property)=\($0.value)" }.joined(separator: ", ")
        return "foldcam-pipewire feeds it from the node with \(wanted) (in the user's session: --probe cannot see PipeWire; pw-dump there lists the nodes)"
    }
}
