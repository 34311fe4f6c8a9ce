import FoldcamCore

/// The sensors `foldcamctl calibrate` measures, found as foldcamd finds them (udev, the model's
/// device matches, `IIOClassifier`) but read raw: any sign, offset or label swap already set
/// (by the model or a udev rule) is left out, since calibrating finds those anew. Unlike
/// `SensorSet`, nothing filters the readings (a reversed hinge reads out of range until corrected).
public struct RawSensors {
    public struct Hinge: Sendable {
        public var hinge: Int
        public var syspath: String
        /// The IIO device's `name`, for a model entry that has to be added.
        public var name: String
        /// The `devices.sensors` entry that matched it; nil when none did.
        public var entry: Int?
        let scale: Double
        let offset: Double
        public let rate: PollRate
    }

    public struct Accelerometer: Sendable {
        /// The rig accelerometer its label (after the model's location, before any swap) names.
        public var sensor: Int
        public var syspath: String
        public var location: String
        public var entry: Int?
        let matrix: MountMatrix
        let scales: [Double]
        let offsets: [Double]
        public let rate: PollRate
    }

    public var hinges: [Hinge] = []
    public var accelerometers: [Accelerometer] = []
    /// IIO devices that are not sensors of this rig, with why (for the "found nothing" message).
    public var skipped: [String] = []

    /// A sensor that publishes no sampling frequency is read this often.
    static let fastestMilliseconds = 20
    /// Properties that carry corrections: dropped, so the sensor is measured as it reports.
    static let correctionProperties = [HingeCorrection.signProperty, HingeCorrection.offsetProperty, AccelerometerSwap.property]

    public static func find(rig: Rig, model: DeviceModel) throws(DeviceError) -> RawSensors {
        var found = RawSensors()
        let context = try UdevContext()
        for device in try UdevEnumerator.devices(context, subsystems: ["iio"]).sorted(by: { $0.syspath < $1.syspath }) {
            var record = device.record(attributes: IIOClassifier.attributes, model: model)
            for property in correctionProperties { record.properties[property] = nil }
            let entry = model.match(subsystem: "iio", properties: device.properties, attributes: record.attributes).flatMap { entryIndex($0.entry) }
            let syspath = record.syspath
            switch IIOClassifier.classify(record, rig: rig) {
            case let .hinge(hinge, _):
                found.hinges.append(Hinge(
                    hinge: hinge, syspath: syspath, name: record.attributes["name"] ?? "hinge", entry: entry,
                    scale: try SysfsAttributes.number(syspath, ["in_angl0_scale", "in_angl_scale"]) ?? 1,
                    offset: try SysfsAttributes.number(syspath, ["in_angl0_offset", "in_angl_offset"]) ?? 0,
                    rate: PollRate.of(syspath: syspath, attributes: IIOPolledHingeDriver.samplingFrequencyAttributes, floorMilliseconds: Self.fastestMilliseconds)))
            case let .accelerometer(sensor, location, matrix, _):
                var scales: [Double] = []
                var offsets: [Double] = []
                for axis in ["x", "y", "z"] {
                    scales.append(try SysfsAttributes.number(syspath, ["in_accel_\(axis)_scale", "in_accel_scale"]) ?? 1)
                    offsets.append(try SysfsAttributes.number(syspath, ["in_accel_\(axis)_offset", "in_accel_offset"]) ?? 0)
                }
                found.accelerometers.append(Accelerometer(
                    sensor: sensor, syspath: syspath, location: location, entry: entry, matrix: matrix, scales: scales, offsets: offsets,
                    rate: PollRate.of(syspath: syspath, attributes: IIOAccelerometerDriver.samplingFrequencyAttributes, floorMilliseconds: Self.fastestMilliseconds)))
            case let .skipped(reason):
                found.skipped.append("\(syspath) (\(record.attributes["name"] ?? "?")): \(reason)")
            }
        }
        return found
    }

    /// 3 from "devices.sensors[3]".
    static func entryIndex(_ entry: String) -> Int? {
        guard entry.hasPrefix("devices.sensors["), entry.hasSuffix("]") else { return nil }
        return Int(entry.dropFirst("devices.sensors[".count).dropLast())
    }

    /// The hinge's angle in degrees as the sensor reports it (no correction).
    public static func read(_ hinge: Hinge) throws(DeviceError) -> Double {
        let text = try SysfsAttributes.read(hinge.syspath, "in_angl0_raw")
        guard let raw = IIOValue.parse(text) else { throw .garbage(device: hinge.syspath, call: "read in_angl0_raw", what: "\"\(text)\" is not a number") }
        return IIOValue.hingeDegrees(raw: raw, scale: hinge.scale, offset: hinge.offset)
    }

    /// The accelerometer's reading in its panel's axes (m/s², pointing down).
    public static func read(_ accelerometer: Accelerometer) throws(DeviceError) -> Vector3 {
        var values: [Double] = []
        for (index, axis) in ["x", "y", "z"].enumerated() {
            let text = try SysfsAttributes.read(accelerometer.syspath, "in_accel_\(axis)_raw")
            guard let raw = IIOValue.parse(text) else {
                throw .garbage(device: accelerometer.syspath, call: "read in_accel_\(axis)_raw", what: "\"\(text)\" is not a number")
            }
            values.append(IIOValue.processed(raw: raw, scale: accelerometer.scales[index], offset: accelerometer.offsets[index]))
        }
        return accelerometer.matrix.apply(Vector3(values[0], values[1], values[2]))
    }
}
