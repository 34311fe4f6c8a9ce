import FoldcamCore

extension ProbeReport {
    /// One thing the rig declares (a camera, hinge, accelerometer or switch) and what the probe
    /// found for it: `foldcamd --probe`'s diagnosis, which also sets its exit code.
    public struct Need: Sendable, Equatable {
        public enum Kind: String, Sendable { case camera, hinge, accelerometer, `switch`, output }
        public enum Status: String, Sendable {
            /// A device answered for it.
            case found
            /// A device is there but another program holds it (EBUSY): present, not probed.
            case busy
            /// A device is tagged for it but failed (open, a query, or it is not a capture node).
            case failed
            /// No device is tagged for it.
            case missing
        }

        public var kind: Kind
        public var id: String
        public var status: Status
        /// Whether the rig cannot be followed without it (a hinge with another angle source is
        /// not needed; switches never are on their own).
        public var needed: Bool
        /// The device node or sysfs path, when one was tagged for it.
        public var node: String?
        /// The udev property (or attribute) that tags it, as looked for or found.
        public var property: String
        /// The call that failed ("open", "VIDIOC_ENUM_FMT"), when one did.
        public var call: String?
        /// What happened, for people: the error text, the reading, or what to add.
        public var detail: String

        /// For a rig camera the virtual camera's pool leaves out: why (`VirtualCameraPlan.exclusion`).
        public var poolExclusion: String? = nil

        /// Missing or failed and needed: `--probe` exits `ProbeReport.needsMissingExitCode`.
        public var lacking: Bool { needed && (status == .missing || status == .failed) }
    }

    /// Exit code of `foldcamd --probe` when something the rig needs is missing or failed
    /// (0: all found; 1: the probe could not run; 2: bad configuration or rig).
    public static let needsMissingExitCode: Int32 = 3

    /// Every rig camera, hinge, accelerometer and switch, in rig order.
    public var needs: [Need] {
        let accelerometers = accelerometerNeeds
        let switches = switchNeeds
        return cameraNeeds + hingeNeeds(accelerometers: accelerometers, switches: switches) + accelerometers + switches + outputNeeds
    }

    /// Every display naming a DRM connector. Never needed: a display whose output is missing
    /// counts as disconnected, the rig is still followed.
    var outputNeeds: [Need] {
        rig.displays.compactMap { display -> Need? in
            guard let name = display.output?.connector else { return nil }
            let property = "/sys/class/drm/cardK-\(name)"
            guard let connectors else {
                return Need(kind: .output, id: display.id, status: .missing, needed: false, property: property,
                            detail: "no DRM card is visible (a container, or no display driver): the output's state is unknown")
            }
            guard let found = connectors.first(where: { $0.name == name }) else {
                let names = connectors.map(\.name)
                return Need(kind: .output, id: display.id, status: .missing, needed: false, property: property,
                            detail: "no connector \(name)\(NearestName.hint(for: name, among: names)) (connectors: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
            }
            var detail = "\(found.card)-\(found.name): \(found.state.rawValue)"
            if let rotation = found.panelOrientation { detail += ", panel orientation \(rotation)° clockwise" }
            return Need(kind: .output, id: display.id, status: .found, needed: false, node: "\(found.card)-\(found.name)", property: property, detail: detail)
        }
    }

    public var lacking: [Need] { needs.filter(\.lacking) }

    var cameraNeeds: [Need] {
        rig.cameras.indices.map { index in
            var need = cameraNeed(rig.cameras[index])
            need.poolExclusion = VirtualCameraPlan.exclusion(of: index, in: rig)
            return need
        }
    }

    private func cameraNeed(_ camera: Camera) -> Need {
        let property = "FOLDCAM_CAMERA=\(camera.id)"
        var best: Need?
        func consider(_ need: Need) {
            let rank: [Need.Status: Int] = [.found: 0, .busy: 1, .failed: 2, .missing: 3]
            if best == nil || rank[need.status]! < rank[best!.status]! { best = need }
        }
        for node in cameras {
            switch node.entry {
            case let .camera(descriptor) where descriptor.rigCamera == camera.id:
                consider(Need(kind: .camera, id: camera.id, status: .found, needed: true, node: node.node, property: property,
                              detail: "\(node.node) (\(descriptor.localizedName)) via \(descriptor.provenance?.matchedBy ?? "udev \(property)")"))
            case let .busy(index?, error) where rig.cameras[index].id == camera.id:
                consider(Need(kind: .camera, id: camera.id, status: .busy, needed: true, node: node.node, property: property, call: Self.call(error),
                              detail: "\(error) (another program has it open: it is there, but was not probed)"))
            case let .failed(error) where node.taggedAs == camera.id:
                consider(Need(kind: .camera, id: camera.id, status: .failed, needed: true, node: node.node, property: property, call: Self.call(error),
                              detail: "\(error) (udev tags \(node.node) \(property))"))
            case let .skipped(reason) where node.taggedAs == camera.id:
                consider(Need(kind: .camera, id: camera.id, status: .failed, needed: true, node: node.node, property: property,
                              detail: "udev tags \(node.node) \(property), but it is \(reason): the rule matches the wrong node"))
            default:
                break
            }
        }
        return best ?? pipeWireCameraNeed(camera, property: property) ?? Need(kind: .camera, id: camera.id, status: .missing, needed: true, property: property,
                            detail: "no video4linux node has \(property) (see docs/install.md, \"udev rules\")")
    }

    /// A hinge needs an angle source: its sensor, the accelerometer pair across it, or a switch
    /// mapped to it (a convertible's tablet-mode switch). Without any it stays at its initial angle.
    func hingeNeeds(accelerometers: [Need], switches: [Need]) -> [Need] {
        let pair = AccelerometerPair(rig)
        return rig.hinges.indices.map { index in
            let hinge = rig.hinges[index]
            let property = rig.hinges.count == 1 ? "FOLDCAM_HINGE=\(hinge.id) or IIO name \"hinge\"" : "FOLDCAM_HINGE=\(hinge.id)"
            let others = otherSource(for: index, pair: pair, accelerometers: accelerometers, switches: switches)
            if let sensor = sensors.first(where: { if case .hinge(index, _) = $0.outcome { return true } else { return false } }) {
                guard case let .hinge(_, matchedBy) = sensor.outcome else { fatalError("matched above") }
                if case let .hingeAngle(_, degrees)? = sensor.reading {
                    return Need(kind: .hinge, id: hinge.id, status: .found, needed: true, node: sensor.syspath, property: property,
                                detail: "\(sensor.syspath) (\(sensor.name)) via \(matchedBy), reading \(Self.degrees(degrees))")
                }
                return Need(kind: .hinge, id: hinge.id, status: .failed, needed: others.isEmpty, node: sensor.syspath, property: property,
                            call: "read in_angl0_raw", detail: "\(sensor.syspath) (\(sensor.name)) via \(matchedBy) gave no angle (see the warnings above)")
            }
            let instead = others.isEmpty ? "its angle stays at the initial \(Self.degrees(hinge.initial))" : "its angle comes from \(others.joined(separator: " and "))"
            return Need(kind: .hinge, id: hinge.id, status: .missing, needed: others.isEmpty, property: property,
                        detail: "no IIO hinge sensor with \(property): \(instead)")
        }
    }

    /// "90°", "112.5°".
    static func degrees(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return (tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)) + "°"
    }

    /// The other angle sources found for hinge `index`, for people.
    private func otherSource(for index: Int, pair: AccelerometerPair?, accelerometers: [Need], switches: [Need]) -> [String] {
        var sources: [String] = []
        if let pair, pair.hinge == index, accelerometers.allSatisfy({ $0.status == .found }) {
            sources.append("the accelerometers \(rig.accelerometers[pair.parentSensor].id) and \(rig.accelerometers[pair.childSensor].id)")
        }
        for (name, mapping) in [("lid", rig.switches.lid), ("tabletMode", rig.switches.tabletMode)] where mapping?.hinge == index {
            if switches.contains(where: { $0.id == name && $0.status == .found }) { sources.append("the \(name) switch") }
        }
        return sources
    }

    var accelerometerNeeds: [Need] {
        rig.accelerometers.indices.map { index in
            let accelerometer = rig.accelerometers[index]
            let property = "ACCEL_LOCATION=\(accelerometer.id)"
            guard let sensor = sensors.first(where: { if case .accelerometer(index, _, _, _) = $0.outcome { return true } else { return false } }) else {
                return Need(kind: .accelerometer, id: accelerometer.id, status: .missing, needed: true, property: property,
                            detail: "no IIO accelerometer with \(property) (udev's default is display)")
            }
            guard case let .accelerometer(_, _, _, matrixSource) = sensor.outcome else { fatalError("matched above") }
            if case .accelerometer? = sensor.reading {
                return Need(kind: .accelerometer, id: accelerometer.id, status: .found, needed: true, node: sensor.syspath, property: property,
                            detail: "\(sensor.syspath) (\(sensor.name)), mount matrix from \(matrixSource)")
            }
            return Need(kind: .accelerometer, id: accelerometer.id, status: .failed, needed: true, node: sensor.syspath, property: property,
                        call: "read in_accel_*_raw", detail: "\(sensor.syspath) (\(sensor.name)) gave no reading (see the warnings above)")
        }
    }

    /// The switches the rig maps, found when libinput reported a device that has them.
    var switchNeeds: [Need] {
        [("lid", rig.switches.lid, "SW_LID"), ("tabletMode", rig.switches.tabletMode, "SW_TABLET_MODE")].compactMap { name, mapping, code in
            guard mapping != nil else { return nil }
            if let device = switchDevices.first(where: { code == "SW_LID" ? $0.lid : $0.tabletMode }) {
                return Need(kind: .switch, id: name, status: .found, needed: false, node: device.name, property: code,
                            detail: "\"\(device.name)\" (libinput seat \(seat))")
            }
            let why = switchesNote.map { " (\($0))" } ?? ""
            return Need(kind: .switch, id: name, status: .missing, needed: false, property: code,
                        detail: "no switch device with \(code) on libinput seat \(seat)\(why)")
        }
    }

    static func call(_ error: DeviceError) -> String {
        switch error {
        case let .failed(failure): return failure.call
        case let .garbage(_, call, _): return call
        }
    }
}
