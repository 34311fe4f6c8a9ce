import FoldcamCore
import FoldcamIO

/// `foldcamd --probe`: one pass over the devices present, without the daemon. Blocking, in its
/// own process; warnings go to `log` (stderr) as the daemon would log them.
public enum DeviceProbe {
    public static func run(rig: Rig, settings: DeviceSettings, log: Log) throws(DeviceError) -> ProbeReport {
        var report = ProbeReport(rig: rig)
        report.seat = settings.seat
        let context = try UdevContext()
        var inventory = CameraInventory(rig: rig, loopback: settings.loopback)
        let cameraDevices = try UdevEnumerator.devices(context, subsystems: ["video4linux"])
        for device in cameraDevices.sorted(by: { Self.nodeOrder($0.devnode ?? $0.syspath) < Self.nodeOrder($1.devnode ?? $1.syspath) }) {
            let record = device.record(attributes: UdevRecord.cameraAttributes)
            _ = inventory.update(record, log: log)
            if let entry = inventory.entries[record.syspath]?.entry {
                report.cameras.append(ProbeReport.CameraNode(node: record.displayName, syspath: record.syspath, entry: entry, taggedAs: record.properties["FOLDCAM_CAMERA"]))
            }
        }
        for device in try UdevEnumerator.devices(context, subsystems: ["iio"]).sorted(by: { $0.syspath < $1.syspath }) {
            let record = device.record(attributes: IIOClassifier.attributes)
            let sensors = SensorSet(rig: rig, log: log, useBuffers: false)
            let reading = sensors.add(record).first
            report.sensors.append(ProbeReport.Sensor(syspath: record.syspath, name: record.attributes["name"] ?? "?",
                                                     outcome: IIOClassifier.classify(record, rig: rig), reading: reading))
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
