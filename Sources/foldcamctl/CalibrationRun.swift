import FoldcamCore
import FoldcamDevices
import FoldcamIO

/// The guided part of `foldcamctl calibrate`: for each pose, says what to do, waits for Enter,
/// then reads the raw sensors at their own rate until `SteadyReadings` says they settled.
struct CalibrationRun {
    /// A pose whose readings do not settle within this long is refused (the rig is still moving).
    static let settleSeconds = 30
    let rig: Rig
    let sensors: RawSensors
    /// The accelerometer pair about the folded hinge, when the rig has one and both were found.
    let pair: (parent: RawSensors.Accelerometer, child: RawSensors.Accelerometer, geometry: AccelerometerPair)?

    init(rig: Rig, sensors: RawSensors) {
        self.rig = rig
        self.sensors = sensors
        if let geometry = AccelerometerPair(rig),
           let parent = sensors.accelerometers.first(where: { $0.sensor == geometry.parentSensor }),
           let child = sensors.accelerometers.first(where: { $0.sensor == geometry.childSensor }) {
            pair = (parent, child, geometry)
        } else {
            pair = nil
        }
    }

    /// "hinge sensor hinge (/sys/...), accelerometers base and display".
    var names: String {
        (sensors.hinges.map { "hinge sensor \(ClientText.quoted($0.name)) (\($0.syspath))" } + (pair.map { ["accelerometers \($0.parent.location) and \($0.child.location)"] } ?? [])).joined(separator: ", ")
    }

    /// One period for every sensor read: the slowest sensor's own (reading faster repeats samples).
    var periodMilliseconds: Int {
        (sensors.hinges.map(\.rate) + [pair?.parent.rate, pair?.child.rate].compactMap { $0 }).map(\.milliseconds).max() ?? 100
    }

    /// The settled readings of each step: one channel per hinge sensor, then the pair's angle.
    func record(_ steps: [CalibrationStep]) async throws -> [[Double?]] {
        var recorded: [[Double?]] = []
        for (number, step) in steps.enumerated() {
            StandardOutput.write("Step \(number + 1) of \(steps.count): \(step.instruction), hold it still, then press Enter.\n")
            guard readLine() != nil else {
                throw CalibrationError(description: "standard input ended before step \(number + 1): calibration stopped, nothing written")
            }
            recorded.append(try await settle(step))
        }
        return recorded
    }

    private func settle(_ step: CalibrationStep) async throws -> [Double?] {
        var steady = SteadyReadings()
        let limit = Self.settleSeconds * 1000 / periodMilliseconds
        StandardOutput.write("  reading every \(periodMilliseconds) ms until \(SteadyReadings.count) readings in a row agree within \(Self.degrees(SteadyReadings.spread))°\n")
        for count in 1...max(limit, SteadyReadings.count) {
            let sample = try read(near: step.target)
            if count % SteadyReadings.count == 1 { StandardOutput.write("  read \(text(sample))\n") }
            if let settled = steady.add(sample) {
                StandardOutput.write("  recorded \(text(settled)) for \(Self.degrees(step.target))°\n")
                return settled
            }
            try await Task.sleep(for: .milliseconds(periodMilliseconds))
        }
        throw CalibrationError(description: "the readings did not settle within \(Self.settleSeconds) s at \(Self.degrees(step.target))°: hold the rig still and run calibrate again")
    }

    private func read(near target: Double) throws -> [Double?] {
        do {
            return try readSample(near: target)
        } catch {
            throw CalibrationError(description: "\(error); nothing written (a sensor another program holds, such as iio-sensor-proxy, may refuse sysfs reads: stop it while calibrating)")
        }
    }

    private func readSample(near target: Double) throws(DeviceError) -> [Double?] {
        var sample: [Double?] = []
        for hinge in sensors.hinges { sample.append(try RawSensors.read(hinge)) }
        if let pair {
            let parent = try RawSensors.read(pair.parent)
            let child = try RawSensors.read(pair.child)
            sample.append(AccelerometerPair.hingeAngle(parentReading: parent, childReading: child, hinge: rig.hinges[pair.geometry.hinge],
                                                       minimumProjection: rig.tunables.accelerometerMinimumProjection, near: target))
        }
        return sample
    }

    func text(_ sample: [Double?]) -> String {
        var parts = zip(sensors.hinges, sample).map { hinge, value in "\(hinge.name) \(value.map { Self.degrees($0) + "°" } ?? "-")" }
        if pair != nil, let angle = sample.last {
            parts.append("accelerometers \(angle.map { Self.degrees($0) + "°" } ?? "- (gravity along the hinge)")")
        }
        return parts.joined(separator: ", ")
    }

    /// 104, 103.5: degrees to a tenth.
    static func degrees(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() && abs(tenths) < 1e9 ? String(Int(tenths)) : String(tenths)
    }
}

/// Calibration could not finish: why, and what to do (exit code 1 as for any refused command).
struct CalibrationError: Error, CustomStringConvertible {
    var description: String
}
