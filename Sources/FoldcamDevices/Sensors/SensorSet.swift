import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// The IIO sensors in use (hinge-angle sensors and accelerometers) and their polling: each tick
/// reads the sysfs channels, filters the values and returns the `InputEvent`s to post. A hinge
/// sensor is polled only while it is the active input for its hinge (no switch overrides it).
/// Lives on the device thread; reads block.
final class SensorSet {
    struct HingeSensor {
        var hinge: Int
        var scale: Double
        var offset: Double
        var filter: ReadingFilter
        var lastPosted: Double?
    }

    struct AccelerometerSensor {
        var sensor: Int
        var matrix: MountMatrix
        var scales: [Double]
        var offsets: [Double]
        var lastPosted: Vector3?
    }

    let rig: Rig
    let log: Log
    private var hinges: [String: HingeSensor] = [:]
    private var accelerometers: [String: AccelerometerSensor] = [:]
    /// Hinge sensors read through their IIO buffer (the rest are polled).
    private var buffers: [String: IIOHingeBuffer] = [:]
    private var limiter = WarningLimiter()
    /// Switch states as libinput reported them: an engaged switch makes its hinge's sensor idle.
    var lidClosed = false
    var tabletModeOn = false

    /// False for one-shot reads (`foldcamd --probe`), which must not reconfigure buffers.
    let useBuffers: Bool

    init(rig: Rig, log: Log, useBuffers: Bool = true) {
        self.rig = rig
        self.log = log
        self.useBuffers = useBuffers
    }

    var isEmpty: Bool { hinges.isEmpty && accelerometers.isEmpty }

    /// An IIO device appeared (or was enumerated): classify it and start using it.
    func add(_ record: UdevRecord, atMilliseconds now: Int = 0) -> [InputEvent] {
        let outcome = IIOClassifier.classify(record, rig: rig)
        do throws(DeviceError) {
            switch outcome {
            case let .hinge(hinge, matchedBy):
                let scale = try SysfsAttributes.number(record.syspath, ["in_angl0_scale", "in_angl_scale"]) ?? 1
                let offset = try SysfsAttributes.number(record.syspath, ["in_angl0_offset", "in_angl_offset"]) ?? 0
                hinges[record.syspath] = HingeSensor(hinge: hinge, scale: scale, offset: offset,
                                                     filter: ReadingFilter(range: rig.hinges[hinge].minimum...rig.hinges[hinge].maximum))
                var how = "polled from sysfs"
                if useBuffers, let devnode = record.devnode, IIOHingeBuffer.available(syspath: record.syspath, devnode: devnode) {
                    do {
                        buffers[record.syspath] = try IIOHingeBuffer(syspath: record.syspath, devnode: devnode)
                        how = "read from its IIO buffer \(devnode)"
                    } catch {
                        log.notice("\(error); polling the hinge sensor instead of using its buffer")
                    }
                }
                log.info("hinge sensor \(record.syspath): hinge \(rig.hinges[hinge].id) (\(matchedBy)), \(how)")
            case let .accelerometer(sensor, location, matrix, matrixSource):
                var scales: [Double] = []
                var offsets: [Double] = []
                for axis in ["x", "y", "z"] {
                    scales.append(try SysfsAttributes.number(record.syspath, ["in_accel_\(axis)_scale", "in_accel_scale"]) ?? 1)
                    offsets.append(try SysfsAttributes.number(record.syspath, ["in_accel_\(axis)_offset", "in_accel_offset"]) ?? 0)
                }
                accelerometers[record.syspath] = AccelerometerSensor(sensor: sensor, matrix: matrix, scales: scales, offsets: offsets)
                log.info("accelerometer \(record.syspath): \(location) (rig accelerometer \(rig.accelerometers[sensor].id)), mount matrix from \(matrixSource)")
            case let .skipped(reason):
                log.debug("IIO device \(record.syspath) skipped: \(reason)")
                return []
            }
        } catch {
            log.warning("\(error); not using this sensor")
            return []
        }
        return firstReading(record.syspath, now: now)
    }

    /// An IIO device went away: its hinge or accelerometer falls back to the next input.
    func remove(syspath: String) -> [InputEvent] {
        buffers[syspath] = nil
        if let sensor = hinges.removeValue(forKey: syspath) {
            log.notice("hinge sensor for \(rig.hinges[sensor.hinge].id) removed; falling back to the next input")
            return [.hingeSensorLost(hinge: sensor.hinge)]
        }
        if let sensor = accelerometers.removeValue(forKey: syspath) {
            log.notice("accelerometer \(rig.accelerometers[sensor.sensor].id) removed")
            return [.accelerometerLost(sensor: sensor.sensor)]
        }
        return []
    }

    /// Whether a switch currently decides this hinge's angle (then its sensor rests).
    func switchOverrides(_ hinge: Int) -> Bool {
        (lidClosed && rig.switches.lid?.hinge == hinge) || (tabletModeOn && rig.switches.tabletMode?.hinge == hinge)
    }

    /// Reads every polled sensor once (hinge sensors only while no switch overrides them).
    func poll(atMilliseconds now: Int) -> [InputEvent] {
        hinges.keys.flatMap { pollHinge($0, now: now) } + accelerometers.keys.flatMap { pollAccelerometer($0, now: now) }
    }

    /// The first reading of a sensor just added (no rate check against an older reading).
    private func firstReading(_ syspath: String, now: Int) -> [InputEvent] {
        hinges[syspath]?.filter.reset()
        return pollHinge(syspath, now: now) + pollAccelerometer(syspath, now: now)
    }

    private func pollHinge(_ syspath: String, now: Int) -> [InputEvent] {
        guard buffers[syspath] == nil, var sensor = hinges[syspath] else { return [] }
        guard !switchOverrides(sensor.hinge) else {
            // Resting: the next reading starts fresh (the hinge may have moved a lot meanwhile).
            sensor.filter.reset()
            hinges[syspath] = sensor
            return []
        }
        do throws(DeviceError) {
            guard let raw = try SysfsAttributes.number(syspath, ["in_angl0_raw"]) else {
                throw DeviceError(device: syspath, call: "read in_angl0_raw", .failed(.noEntry))
            }
            let events = accept(raw: raw, from: syspath, sensor: &sensor, now: now)
            hinges[syspath] = sensor
            return events
        } catch {
            warn("hinge \(syspath)", "\(error)", now)
            return error.isVanished ? remove(syspath: syspath) : []
        }
    }

    private func pollAccelerometer(_ syspath: String, now: Int) -> [InputEvent] {
        guard var sensor = accelerometers[syspath] else { return [] }
        do throws(DeviceError) {
            var values: [Double] = []
            for (index, axis) in ["x", "y", "z"].enumerated() {
                guard let raw = try SysfsAttributes.number(syspath, ["in_accel_\(axis)_raw"]) else {
                    throw DeviceError(device: syspath, call: "read in_accel_\(axis)_raw", .failed(.noEntry))
                }
                values.append(IIOValue.processed(raw: raw, scale: sensor.scales[index], offset: sensor.offsets[index]))
            }
            // After the mount matrix, readings follow the hwdb / iio-sensor-proxy convention:
            // an upright panel reads −y, i.e. the vector points down, as the engine wants.
            let reading = sensor.matrix.apply(Vector3(values[0], values[1], values[2]))
            if let problem = Self.accelerationProblem(reading) {
                warn("accel \(syspath)", "accelerometer \(syspath): reading \(reading) \(problem); dropped", now)
                return []
            }
            guard sensor.lastPosted.map({ ($0 - reading).length > 0.01 * reading.length }) ?? true else { return [] }
            sensor.lastPosted = reading
            accelerometers[syspath] = sensor
            return [.accelerometer(sensor: sensor.sensor, reading: reading)]
        } catch {
            warn("accel \(syspath)", "\(error)", now)
            return error.isVanished ? remove(syspath: syspath) : []
        }
    }

    /// The descriptor of a hinge sensor's IIO buffer, for the event loop (nil when polled).
    func bufferDescriptor(_ syspath: String) -> FileDescriptor? { buffers[syspath]?.descriptor }

    /// The buffer became readable: the newest samples become hinge angles. `vanished` means the
    /// device is gone: the caller stops watching the descriptor, then calls `remove`.
    func readBuffer(_ syspath: String, atMilliseconds now: Int) -> (events: [InputEvent], vanished: Bool) {
        guard let buffer = buffers[syspath], var sensor = hinges[syspath] else { return ([], false) }
        do throws(DeviceError) {
            // Samples read together arrived together: only the newest matters to the engine
            // (and without per-sample timestamps their spacing is unknown to the rate check).
            // Forwarded even while a switch overrides the hinge: the engine prefers the switch and
            // has the latest reading ready when it turns off. (Only polling rests meanwhile.)
            guard let raw = try buffer.read().last else { return ([], false) }
            let events = accept(raw: Double(raw), from: syspath, sensor: &sensor, now: now)
            hinges[syspath] = sensor
            return (events, false)
        } catch {
            warn("hinge \(syspath)", "\(error)", now)
            return ([], error.isVanished)
        }
    }

    /// Filters one raw hinge value; the event to post when it is new and believable.
    private func accept(raw: Double, from syspath: String, sensor: inout HingeSensor, now: Int) -> [InputEvent] {
        let degrees = IIOValue.hingeDegrees(raw: raw, scale: sensor.scale, offset: sensor.offset)
        if let rejection = sensor.filter.check(degrees, atMilliseconds: now) {
            warn("hinge \(syspath)", "hinge sensor \(syspath): reading \(rejection); dropped", now)
            return []
        }
        guard sensor.lastPosted.map({ abs($0 - degrees) >= 0.05 }) ?? true else { return [] }
        sensor.lastPosted = degrees
        return [.hingeAngle(hinge: sensor.hinge, degrees: degrees)]
    }

    /// Readings that cannot be gravity on a rig someone holds: nil when plausible. Without a
    /// known scale the units are unknown, so only non-finite and all-zero readings are refused.
    static func accelerationProblem(_ reading: Vector3) -> String? {
        reading.directionProblem(minimumLength: 1e-9)
    }

    private func warn(_ key: String, _ message: String, _ now: Int) {
        if let text = limiter.admit(key: key, message, atMilliseconds: now) { log.warning(text) }
    }
}
