import FoldcamCore
@testable import FoldcamDevices
import FoldcamIO
import FoldcamPlatform
import Glibc
import Testing

/// Polled sensors: read at the device's own sampling frequency (never faster than
/// `sensorPollMilliseconds`), from an attribute kept open and re-read with pread.
@Suite struct PolledSensorTests {
    typealias FakeHinge = SensorDriverTests.FakeHinge
    static let quiet = Log(threshold: .error)

    @Test func theRateFollowsTheSensorsSamplingFrequency() throws {
        let hinge = try FakeHinge(raw: "90", buffered: false)
        try hinge.set("sampling_frequency", "5")
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet, pollFloorMilliseconds: 50)
        _ = sensors.add(hinge.record)
        #expect(sensors.pollRate(hinge.syspath) == PollRate(samplingHertz: 5, floorMilliseconds: 50))
        #expect(sensors.pollMilliseconds == 200)
        #expect(sensors.pollRate(hinge.syspath)?.followsSensor == true)
    }

    @Test func theChannelsOwnFrequencyComesFirstAndTheFloorBoundsIt() throws {
        let hinge = try FakeHinge(raw: "90", buffered: false)
        try hinge.set("sampling_frequency", "2")
        try hinge.set("in_angl0_sampling_frequency", "100.000000")
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet, pollFloorMilliseconds: 30)
        _ = sensors.add(hinge.record)
        // 100 Hz would be every 10 ms: the configured 30 ms is the fastest allowed.
        #expect(sensors.pollMilliseconds == 30)
        #expect(sensors.pollRate(hinge.syspath)?.samplingHertz == 100)
        #expect(sensors.pollRate(hinge.syspath)?.followsSensor == false)
    }

    @Test func withoutASamplingFrequencyTheConfiguredIntervalIsUsed() throws {
        let hinge = try FakeHinge(raw: "90", buffered: false)
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet, pollFloorMilliseconds: 80)
        _ = sensors.add(hinge.record)
        #expect(sensors.pollMilliseconds == 80)
        #expect(sensors.pollRate(hinge.syspath)?.samplingHertz == nil)
        _ = sensors.remove(syspath: hinge.syspath)
        #expect(sensors.pollMilliseconds == nil)
    }

    @Test func aBufferedHingeNeedsNoTick() throws {
        let hinge = try FakeHinge(raw: "90", buffered: true)
        try hinge.set("sampling_frequency", "10")
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet)
        _ = sensors.add(hinge.record)
        #expect(sensors.descriptor(hinge.syspath) != nil)
        #expect(sensors.pollMilliseconds == nil)
    }

    @Test func rateEdges() {
        #expect(PollRate(samplingHertz: 0, floorMilliseconds: 50).milliseconds == 50)
        #expect(PollRate(samplingHertz: -3, floorMilliseconds: 50).samplingHertz == nil)
        #expect(PollRate(samplingHertz: 3, floorMilliseconds: 50).milliseconds == 334)
        #expect(PollRate(samplingHertz: 1e-12, floorMilliseconds: 50).milliseconds == PollRate.slowestMilliseconds)
    }

    @Test func theKeptOpenAttributeIsReReadNotReopened() throws {
        let hinge = try FakeHinge(raw: "90", buffered: false)
        let raw = KeptOpenAttribute(syspath: hinge.syspath, name: "in_angl0_raw")
        #expect(try raw.number() == 90)
        #expect(raw.isOpen)
        try hinge.set("in_angl0_raw", "100")
        #expect(try raw.number() == 100)
        // A new file in its place is not seen: the descriptor opened first is the one read.
        try hinge.replace("in_angl0_raw", "120")
        #expect(try raw.number() == 100)
    }

    @Test func aFailedReadClosesTheDescriptorAndTheNextReadReopens() throws {
        let hinge = try FakeHinge(raw: "90", buffered: false)
        // A directory opens but cannot be read (EISDIR): a descriptor that fails.
        mkdir(hinge.syspath + "/in_accel_x_raw", 0o755)
        let raw = KeptOpenAttribute(syspath: hinge.syspath, name: "in_accel_x_raw")
        #expect(throws: DeviceError.self) { try raw.number() }
        #expect(!raw.isOpen)
        rmdir(hinge.syspath + "/in_accel_x_raw")
        #expect(throws: DeviceError.self) { try raw.number() }
        try hinge.set("in_accel_x_raw", "7")
        #expect(try raw.number() == 7)
        #expect(raw.isOpen)
        unlink(hinge.syspath + "/in_accel_x_raw")
    }

    @Test func aPolledHingeKeepsItsAttributeOpen() throws {
        let hinge = try FakeHinge(raw: "90", buffered: false)
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet)
        _ = sensors.add(hinge.record)
        try hinge.set("in_angl0_raw", "100")
        guard case let .hingeAngle(_, degrees)? = sensors.poll(atMilliseconds: 1000).first else { Issue.record("no polled angle"); return }
        #expect(abs(degrees - 100) < 0.001)
        // A new file in its place is not read: the descriptor opened first still answers 100.
        try hinge.replace("in_angl0_raw", "150")
        #expect(sensors.poll(atMilliseconds: 2000).isEmpty)
    }

    @Test func theProbePublishesTheRate() throws {
        var report = ProbeReport(rig: try Fixtures.rig("duo"))
        report.sensors = [.init(syspath: "/sys/bus/iio/devices/iio:device0", name: "hinge", outcome: .hinge(hinge: 0, matchedBy: "IIO name \"hinge\""),
                                reading: .hingeAngle(hinge: 0, degrees: 90), transport: .polled(PollRate(samplingHertz: 10, floorMilliseconds: 50)))]
        #expect(report.text.contains("polled every 100 ms (its sampling_frequency, 10 Hz)"))
        let sensor = report.json["sensors"].flatMap { if case let .array(items) = $0 { items.first } else { nil } }
        #expect(sensor?["readBy"]?.stringValue == "polling")
        #expect(sensor?["pollMilliseconds"]?.numberValue == 100)
        #expect(sensor?["samplingHertz"]?.numberValue == 10)
        report.sensors[0].transport = .buffer
        #expect(report.text.contains("from its IIO buffer (no poll tick)"))
        let buffered = report.json["sensors"].flatMap { if case let .array(items) = $0 { items.first } else { nil } }
        #expect(buffered?["readBy"]?.stringValue == "buffer" && buffered?["pollMilliseconds"] == nil)
    }
}
