import FoldcamCore
import FoldcamIO

/// The cameras present now, keyed by sysfs path, and what their comings and goings mean to the
/// engine (`cameraPlugged`, `cameraUnplugged`, `cameraBusy`). Lives on the device thread; the
/// prober is injected so tests can answer for devices.
public struct CameraInventory {
    public typealias Prober = (String) throws(DeviceError) -> V4L2Answers

    /// What became of one video4linux node.
    public enum Entry: Sendable, Equatable {
        case camera(CameraDescriptor)
        case skipped(reason: String)
        /// EBUSY while probing; `rigCamera` when udev already says which camera it is.
        case busy(rigCamera: Int?, DeviceError)
        case failed(DeviceError)
    }

    public let rig: Rig
    let loopback: CameraClassifier.Loopback
    let prober: Prober
    public private(set) var entries: [String: (record: UdevRecord, entry: Entry)] = [:]
    /// What the engine was last told per rig camera; nil before the first `reconcile`, which
    /// tells it about every camera, present or not (whatever the engine assumed before).
    private var toldPresent: [Bool]?
    private var toldBusy: [Bool]?

    public init(rig: Rig, loopback: CameraClassifier.Loopback, prober: @escaping Prober = V4L2Prober.probe) {
        self.rig = rig
        self.loopback = loopback
        self.prober = prober
    }

    /// Descriptors of the cameras present: rig cameras in rig order, then the rest by id.
    public var descriptors: [CameraDescriptor] {
        let cameras = entries.values.compactMap { item -> CameraDescriptor? in
            if case let .camera(descriptor) = item.entry { return descriptor }
            return nil
        }
        return cameras.sorted { a, b in
            let ia = a.rigCamera.flatMap(rig.cameraIndex) ?? Int.max
            let ib = b.rigCamera.flatMap(rig.cameraIndex) ?? Int.max
            return ia != ib ? ia < ib : a.uniqueID < b.uniqueID
        }
    }

    /// Sensor sub-devices present, by sysfs path: their name, node, device number (udev's
    /// MAJOR:MINOR) and mounting controls, for the capture nodes a model links to them
    /// (`DeviceModel.subdeviceProperty`) or the media graph does (`V4L2Answers.linkedSensor`).
    public private(set) var subdevices: [String: (name: String, node: String, number: String?, controls: V4L2Controls)] = [:]
    /// Capture nodes whose media graph names a sensor, by sysfs path: the sensor's MAJOR:MINOR.
    private var graphLinks: [String: String] = [:]

    /// A node appeared or changed: probe it (blocking) and classify it. A sub-device that
    /// appears makes the capture nodes linked to it be classified again.
    public mutating func update(_ record: UdevRecord, log: Log) -> [InputEvent] {
        entries[record.syspath] = (record, examine(record, log: log))
        if let subdevice = subdevices[record.syspath] {
            for (syspath, item) in entries
            where item.record.properties[DeviceModel.subdeviceProperty] != nil || (subdevice.number != nil && graphLinks[syspath] == subdevice.number) {
                entries[syspath] = (item.record, examine(item.record, log: log))
            }
        }
        return reconcile()
    }

    /// A node went away.
    public mutating func remove(syspath: String, log: Log) -> [InputEvent] {
        subdevices[syspath] = nil
        graphLinks[syspath] = nil
        if let old = entries.removeValue(forKey: syspath), case let .camera(descriptor) = old.entry {
            log.info("camera removed: \(descriptor.localizedName) (\(descriptor.uniqueID))\(descriptor.rigCamera.map { " = rig camera \($0)" } ?? "")")
        }
        return reconcile()
    }

    /// Probes again every node that was busy; true while some still are.
    public mutating func retryBusy(log: Log) -> (events: [InputEvent], stillBusy: Bool) {
        for (syspath, item) in entries {
            if case .busy = item.entry { entries[syspath] = (item.record, examine(item.record, log: log)) }
        }
        let stillBusy = entries.values.contains { if case .busy = $0.entry { return true } else { return false } }
        return (reconcile(), stillBusy)
    }

    mutating func examine(_ record: UdevRecord, log: Log) -> Entry {
        guard let node = record.devnode else { return .skipped(reason: "no device node") }
        var answers: V4L2Answers
        do {
            answers = try prober(node)
        } catch {
            let rigCamera = record.properties["FOLDCAM_CAMERA"].flatMap(rig.cameraIndex)
            if error.isBusy {
                log.warning("\(error); will retry\(rigCamera.map { " (rig camera \(rig.cameras[$0].id) is busy)" } ?? "")")
                return .busy(rigCamera: rigCamera, error)
            }
            log.warning("\(error); \(error.isVanished ? "the device vanished while being probed" : "skipping it")")
            return .failed(error)
        }
        if record.sysname.hasPrefix("v4l-subdev") {
            let number = record.properties["MAJOR"].flatMap { major in record.properties["MINOR"].map { "\(major):\($0)" } }
            subdevices[record.syspath] = (record.attributes["name"] ?? record.sysname, node, number, answers.controls)
        } else {
            graphLinks[record.syspath] = answers.linkedSensor.map { "\($0.major):\($0.minor)" }
            takeMountingFromSensor(record, &answers)
        }
        switch CameraClassifier.classify(record, answers, rig: rig, loopback: loopback) {
        case let .camera(descriptor, warnings):
            for warning in warnings { log.warning(warning) }
            log.info("camera \(node): \(descriptor.localizedName) (\(descriptor.uniqueID)) \(descriptor.rigCamera.map { "= rig camera \($0)" } ?? "matches no rig camera")")
            return .camera(descriptor)
        case let .skipped(reason):
            log.debug("\(node) skipped: \(reason)")
            return .skipped(reason: reason)
        }
    }

    /// A capture node without mounting controls of its own takes its sensor's: the sub-device
    /// a model names (`subdevice` glob on its name), else the one its media graph links it to.
    private func takeMountingFromSensor(_ record: UdevRecord, _ answers: inout V4L2Answers) {
        let sorted = subdevices.values.sorted { $0.node < $1.node }
        if let link = answers.linkedSensor, let subdevice = sorted.first(where: { $0.number == "\(link.major):\(link.minor)" }) {
            answers.sensorNode = "\(subdevice.node) (\(subdevice.name))"
        }
        guard answers.controls.orientation == nil, answers.controls.sensorRotationCounterClockwise == nil else { return }
        if let pattern = record.properties[DeviceModel.subdeviceProperty], let subdevice = sorted.first(where: { Glob(pattern).matches($0.name) }) {
            answers.controls.orientation = subdevice.controls.orientation
            answers.controls.sensorRotationCounterClockwise = subdevice.controls.sensorRotationCounterClockwise
            answers.mountingFrom = "\(subdevice.node) (\(subdevice.name))"
        } else if let link = answers.linkedSensor, let subdevice = sorted.first(where: { $0.number == "\(link.major):\(link.minor)" }) {
            answers.controls.orientation = subdevice.controls.orientation
            answers.controls.sensorRotationCounterClockwise = subdevice.controls.sensorRotationCounterClockwise
            answers.mountingFrom = "\(subdevice.node) (\(subdevice.name), its sensor in the media graph)"
        }
    }

    /// Compares what is present and busy with what the engine was told; returns the news (all
    /// of it the first time). A rig camera is present once a node tagged with it answered the
    /// probe (or is busy: it answered EBUSY); a node that failed to open does not count.
    public mutating func reconcile() -> [InputEvent] {
        var present = Array(repeating: false, count: rig.cameras.count)
        var busy = present
        for item in entries.values {
            switch item.entry {
            case let .camera(descriptor):
                if let index = descriptor.rigCamera.flatMap(rig.cameraIndex) { present[index] = true }
            case let .busy(rigCamera?, _):
                present[rigCamera] = true
                busy[rigCamera] = true
            default: break
            }
        }
        var events: [InputEvent] = []
        for index in rig.cameras.indices {
            if present[index] != toldPresent?[index] {
                events.append(present[index] ? .cameraPlugged(camera: index) : .cameraUnplugged(camera: index))
            }
            if busy[index] != toldBusy?[index] { events.append(.cameraBusy(camera: index, busy: busy[index])) }
        }
        toldPresent = present
        toldBusy = busy
        return events
    }
}
