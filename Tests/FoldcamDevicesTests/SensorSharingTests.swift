import FoldcamCore
@testable import FoldcamDevices
import FoldcamIO
import Testing

/// Sensors iio-sensor-proxy reads: while it runs, a device udev tagged for it is read by polled
/// sysfs reads only, and its IIO buffer is left alone (an IIO character device opens once).
@Suite struct SensorSharingTests {
    static let quiet = Log(threshold: .error)
    static let tagged = [SensorSharing.proxyTypeProperty: "iio-buffer-accel iio-poll-accel"]

    @Test func aTaggedDeviceIsSharedOnlyWhileTheProxyRuns() {
        #expect(SensorSharing.of(properties: Self.tagged, proxy: .running) == .sharedWithProxy(types: ["iio-buffer-accel", "iio-poll-accel"]))
        #expect(SensorSharing.of(properties: Self.tagged, proxy: .notRunning) == .own)
        #expect(SensorSharing.of(properties: Self.tagged, proxy: .unknown(reason: "no libsystemd")) == .own)
        #expect(SensorSharing.of(properties: [:], proxy: .running) == .own)
        #expect(SensorSharing.of(properties: [SensorSharing.proxyTypeProperty: ""], proxy: .running) == .own)
    }

    @Test func aSharedDeviceMayNotBeBuffered() {
        let shared = SensorSharing.of(properties: Self.tagged, proxy: .running)
        #expect(!shared.mayUseBuffer)
        #expect(shared.holder == "iio-sensor-proxy (iio-buffer-accel, iio-poll-accel)")
        #expect(SensorSharing.own.mayUseBuffer && SensorSharing.own.holder == nil)
        #expect(!SensorOptions(useBuffers: true, sharing: shared).mayUseBuffer)
        #expect(SensorOptions(useBuffers: true, sharing: .own).mayUseBuffer)
    }

    @Test func underARunningProxyABufferedSensorIsPolledAndItsBufferUntouched() throws {
        let hinge = try SensorDriverTests.FakeHinge(raw: "90", buffered: true)
        var record = hinge.record
        record.properties = Self.tagged
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet, lookUpProxy: { .running })
        guard case let .hingeAngle(_, degrees)? = sensors.add(record).first else { Issue.record("no polled angle"); return }
        #expect(abs(degrees - 90) < 0.001)
        #expect(sensors.descriptor(hinge.syspath) == nil)
        #expect(sensors.pollRate(hinge.syspath) != nil)
        #expect(try hinge.attribute("buffer/enable") == "0")
        #expect(try hinge.attribute("scan_elements/in_angl0_en") == "0")
    }

    @Test func withoutTheProxyTheSameSensorUsesItsBuffer() throws {
        let hinge = try SensorDriverTests.FakeHinge(raw: "90", buffered: true)
        var record = hinge.record
        record.properties = Self.tagged
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet, lookUpProxy: { .notRunning })
        _ = sensors.add(record)
        #expect(sensors.descriptor(hinge.syspath) != nil)
        #expect(try hinge.attribute("buffer/enable") == "1")
        _ = sensors.remove(syspath: hinge.syspath)
    }

    @Test func anUntaggedDeviceNeverAsksTheBus() throws {
        let hinge = try SensorDriverTests.FakeHinge(raw: "90", buffered: false)
        nonisolated(unsafe) var asked = 0
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet, lookUpProxy: { asked += 1; return .running })
        #expect(sensors.sharing(hinge.record) == .own)
        _ = sensors.add(hinge.record)
        #expect(asked == 0)
    }

    @Test func theProbeReportsASharedBufferedSensorAsPolled() throws {
        let hinge = try SensorDriverTests.FakeHinge(raw: "90", buffered: true)
        let rate = PollRate.of(syspath: hinge.syspath, attributes: [], floorMilliseconds: 50)
        let outcome = IIOClassifier.Outcome.hinge(hinge: 0, matchedBy: "test")
        let shared = SensorSharing.of(properties: Self.tagged, proxy: .running)
        #expect(DeviceProbe.transport(hinge.record, outcome: outcome, polled: rate, sharing: shared) == .polled(rate))
        #expect(DeviceProbe.transport(hinge.record, outcome: outcome, polled: rate, sharing: .own) == .buffer)
    }

    @Test func theStatusSaysWhatWasAsked() {
        #expect(SensorProxyStatus.running.description.contains("net.hadess.SensorProxy has an owner"))
        #expect(SensorProxyStatus.unknown(reason: "dlopen libsystemd.so.0 failed").description.contains("taken as not running"))
    }
}
