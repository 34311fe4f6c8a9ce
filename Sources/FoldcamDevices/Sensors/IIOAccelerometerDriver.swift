import FoldcamCore
import FoldcamPlatform

/// An accelerometer polled from sysfs (`in_accel_{x,y,z}_raw`, kept open) at the device's
/// sampling frequency, turned into the panel's axes by its mount matrix.
final class IIOAccelerometerDriver: SensorDriver {
    static let samplingFrequencyAttributes = ["in_accel_sampling_frequency", "sampling_frequency"]
    private let syspath: String
    private let axes: [KeptOpenAttribute]
    private let sensor: Int
    private let matrix: MountMatrix
    private let scales: [Double]
    private let offsets: [Double]
    private var lastPosted: Vector3?
    private var heldBack: Vector3?
    private let context: SensorContext
    private let rate: PollRate
    var pollRate: PollRate? { rate }
    var how: String { "polled from sysfs \(rate.description)" }
    var descriptor: FileDescriptor? { nil }

    private init(syspath: String, sensor: Int, matrix: MountMatrix, scales: [Double], offsets: [Double], context: SensorContext) {
        self.syspath = syspath
        self.sensor = sensor
        self.matrix = matrix
        self.scales = scales
        self.offsets = offsets
        self.context = context
        axes = ["x", "y", "z"].map { KeptOpenAttribute(syspath: syspath, name: "in_accel_\($0)_raw") }
        rate = PollRate.of(syspath: syspath, attributes: Self.samplingFrequencyAttributes, floorMilliseconds: context.pollFloorMilliseconds)
    }

    static func discover(_ record: UdevRecord, role: SensorRole, options: SensorOptions) -> Bool {
        if case .accelerometer = role { return true }
        return false
    }

    static func open(_ record: UdevRecord, role: SensorRole, context: SensorContext) throws(DeviceError) -> any SensorDriver {
        guard case let .accelerometer(sensor, location, matrix, matrixSource) = role else { preconditionFailure("opened for a role it did not discover") }
        var scales: [Double] = []
        var offsets: [Double] = []
        for axis in ["x", "y", "z"] {
            scales.append(try SysfsAttributes.number(record.syspath, ["in_accel_\(axis)_scale", "in_accel_scale"]) ?? 1)
            offsets.append(try SysfsAttributes.number(record.syspath, ["in_accel_\(axis)_offset", "in_accel_offset"]) ?? 0)
        }
        context.log.info("accelerometer \(record.syspath): \(location) (rig accelerometer \(context.rig.accelerometers[sensor].id)), mount matrix from \(matrixSource)")
        return IIOAccelerometerDriver(syspath: record.syspath, sensor: sensor, matrix: matrix, scales: scales, offsets: offsets, context: context)
    }

    func poll(atMilliseconds now: Int, first: Bool) throws(DeviceError) -> [InputEvent] {
        var values: [Double] = []
        for (index, axis) in axes.enumerated() {
            values.append(IIOValue.processed(raw: try axis.number(), scale: scales[index], offset: offsets[index]))
        }
        // After the mount matrix, readings follow the hwdb / iio-sensor-proxy convention:
        // an upright panel reads −y, i.e. the vector points down, as the engine wants.
        let reading = matrix.apply(Vector3(values[0], values[1], values[2]))
        heldBack = nil
        if let problem = Self.accelerationProblem(reading) {
            context.warn("accel \(syspath)", "accelerometer \(syspath): reading \(reading) \(problem); dropped", now)
            return []
        }
        guard lastPosted.map({ ($0 - reading).length > 0.01 * reading.length }) ?? true else {
            heldBack = reading
            return []
        }
        lastPosted = reading
        return [.accelerometer(sensor: sensor, reading: reading)]
    }

    var heldBackReading: InputEvent? {
        heldBack.map { .accelerometer(sensor: sensor, reading: $0) }
    }

    func readReady(atMilliseconds now: Int) throws(DeviceError) -> [InputEvent] { [] }

    func close() -> [InputEvent] {
        context.log.notice("accelerometer \(context.rig.accelerometers[sensor].id) removed")
        return [.accelerometerLost(sensor: sensor)]
    }

    /// Readings that cannot be gravity on a rig someone holds: nil when plausible. Without a
    /// known scale the units are unknown, so only non-finite and all-zero readings are refused.
    static func accelerationProblem(_ reading: Vector3) -> String? {
        reading.directionProblem(minimumLength: 1e-9)
    }
}
