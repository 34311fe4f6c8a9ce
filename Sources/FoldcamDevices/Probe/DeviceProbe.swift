import FoldcamCore
import FoldcamIO

/// `foldcamd --probe`: one pass over the devices present, without the daemon. Blocking, in its
/// own process; warnings go to `log` (stderr) as the daemon would log them.
public enum DeviceProbe {
    /// `lookUpProxy` is `SensorProxyStatus.lookUp` except in tests.
    public static func run(rig: Rig, settings: DeviceSettings, log: Log,
                           lookUpProxy: () -> SensorProxyStatus = SensorProxyStatus.lookUp) throws(DeviceError) -> ProbeReport {
        var report = ProbeReport(rig: rig)
        report.seat = settings.seat
        let context = try UdevContext()
        var inventory = CameraInventory(rig: rig, loopback: settings.loopback)
        let cameraDevices = try UdevEnumerator.devices(context, subsystems: ["video4linux"])
        for device in cameraDevices.sorted(by: { Self.nodeOrder($0.devnode ?? $0.syspath) < Self.nodeOrder($1.devnode ?? $1.syspath) }) {
            let record = device.record(attributes: UdevRecord.cameraAttributes, model: settings.model)
            noteModelMatch(record, model: settings.model, into: &report)
            _ = inventory.update(record, log: log)
            if let entry = inventory.entries[record.syspath]?.entry {
                report.cameras.append(ProbeReport.CameraNode(node: record.displayName, syspath: record.syspath, entry: entry, taggedAs: record.properties["FOLDCAM_CAMERA"]))
            }
        }
        let iioDevices = try UdevEnumerator.devices(context, subsystems: ["iio"]).sorted(by: { $0.syspath < $1.syspath })
        // The bus is asked once, and only when some device is tagged for iio-sensor-proxy.
        let tagged = iioDevices.contains { $0.properties[SensorSharing.proxyTypeProperty] != nil }
        let proxy = tagged ? lookUpProxy() : nil
        report.sensorProxy = proxy
        for device in iioDevices {
            let record = device.record(attributes: IIOClassifier.attributes, model: settings.model)
            noteModelMatch(record, model: settings.model, into: &report)
            let sensors = SensorSet(rig: rig, log: log, useBuffers: false, pollFloorMilliseconds: settings.sensorPollMilliseconds, lookUpProxy: { proxy ?? .notRunning })
            let reading = sensors.add(record).first
            let outcome = IIOClassifier.classify(record, rig: rig)
            let sharing = sensors.sharing(record)
            report.sensors.append(ProbeReport.Sensor(syspath: record.syspath, name: record.attributes["name"] ?? "?", outcome: outcome, reading: reading,
                                                     transport: Self.transport(record, outcome: outcome, polled: sensors.pollRate(record.syspath), sharing: sharing),
                                                     sharedWith: sharing.holder))
        }
        let outputs = OutputTracker(rig: rig)
        if outputs.watches {
            var cache = PanelOrientationCache()
            let scan = try DRMConnectors.scan(context, readEDID: outputs.readsEDID, orientationOf: outputs.orientationNeeded, cache: &cache)
            report.connectors = scan.cardsSeen ? scan.connectors : nil
            report.orientationNotes = scan.failures.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value); panel orientation not read" }
            for note in report.orientationNotes { log.notice(note) }
        }
        if let model = settings.model, !model.presence.isEmpty {
            for device in try UdevEnumerator.devices(context, subsystems: ["usb"]) {
                let properties = device.properties
                guard let vendor = properties["ID_VENDOR_ID"], let product = properties["ID_MODEL_ID"] else { continue }
                let usb = "\(vendor):\(product)".lowercased()
                for (index, input) in model.presence.enumerated() where input.usb == usb {
                    report.modelFound["devices.presence[\(index)]"] = "present now: usb \(usb) at \(device.syspath)"
                }
            }
            // Input devices by name (a Bluetooth keyboard has no USB id to look for).
            for device in try UdevEnumerator.devices(context, subsystems: ["input"]) {
                guard let quoted = device.properties["NAME"] else { continue }
                let name = quoted.count >= 2 && quoted.hasPrefix("\"") && quoted.hasSuffix("\"") ? String(quoted.dropFirst().dropLast()) : quoted
                for (index, input) in model.presence.enumerated() where input.inputName?.matches(name) == true {
                    report.modelFound["devices.presence[\(index)]"] = "present now: input device \(ClientText.quoted(name)) at \(device.syspath)"
                }
            }
            // A platform device's attribute: one fresh read (absent on a kernel without it).
            for (index, input) in model.presence.enumerated() {
                guard let attribute = input.attribute,
                      let text = try? SysfsAttributes.read("/sys/devices/platform/\(attribute.device)", attribute.name),
                      PlatformAttribute.present(text) == true else { continue }
                report.modelFound["devices.presence[\(index)]"] = "present now: attribute \(attribute.path) reads \(text.trimmingWhitespace)"
            }
        }
        do {
            let switches = try LibInputSwitches(context, seat: settings.seat)
            for event in try switches.drain() {
                if case let .switchDevice(name, lid, tabletMode) = event {
                    let trusted = [lid ? "SW_LID" : nil, tabletMode ? "SW_TABLET_MODE" : nil].compactMap { $0 }
                    report.switchDevices.append(.init(name: name, lid: lid, tabletMode: tabletMode))
                    report.switches.append("\(name): \(trusted.isEmpty ? "no switch libinput trusts" : trusted.joined(separator: ", "))")
                }
            }
            if report.switches.isEmpty { report.switchesNote = "libinput found no switch device on seat \(settings.seat)" }
        } catch {
            report.switchesNote = "\(error)"
        }
        return report
    }

    /// Records which model entry a device matched, for the model's "not found" list.
    static func noteModelMatch(_ record: UdevRecord, model: DeviceModel?, into report: inout ProbeReport) {
        if let provenance = record.properties[DeviceModel.matchProperty] {
            // "model ID devices.cameras[0] (usb ...)": the entry is the third word.
            let words = provenance.split(separator: " ")
            if words.count >= 3 { report.modelFound[String(words[2])] = record.displayName }
        } else if let entry = model?.match(subsystem: record.subsystem, properties: record.properties, attributes: record.attributes)?.entry {
            // Matched, but a local udev rule had tagged it already (the model added nothing).
            report.modelFound[entry] = "\(record.displayName) (tagged by a local udev rule)"
        }
    }

    /// How the daemon would read a sensor in use. The probe itself only polls (it must not
    /// reconfigure a buffer), so a hinge whose buffer the daemon would use is reported as such.
    /// A device shared with iio-sensor-proxy is polled, whatever buffer it has.
    static func transport(_ record: UdevRecord, outcome: IIOClassifier.Outcome, polled: PollRate?, sharing: SensorSharing) -> ProbeReport.Transport? {
        guard let polled else { return nil }
        if case .hinge = outcome, sharing.mayUseBuffer, IIOHingeBuffer.available(syspath: record.syspath, devnode: record.devnode) { return .buffer }
        return .polled(polled)
    }

    /// /dev/video2 before /dev/video10: the name without its number, then the number.
    static func nodeOrder(_ node: String) -> NodeOrder {
        let digits = node.reversed().prefix { $0.isNumber }
        return NodeOrder(stem: String(node.dropLast(digits.count)), number: Int(String(digits.reversed())) ?? -1)
    }

    struct NodeOrder: Comparable {
        var stem: String
        var number: Int
        static func < (a: NodeOrder, b: NodeOrder) -> Bool { a.stem != b.stem ? a.stem < b.stem : a.number < b.number }
    }
}
