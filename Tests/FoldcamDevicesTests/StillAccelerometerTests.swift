import FoldcamCore
@testable import FoldcamDevices
import FoldcamIO
import FoldcamPlatform
import Glibc
import Testing

/// A lid folded over a still base: the base's unchanged reading is held back by its driver, so
/// the sensor set posts it beside the lid's, and the engine (which pairs only readings that both
/// came since its last angle) gets a new hinge angle.
@Suite struct StillAccelerometerTests {
    final class FakeAccelerometer {
        let syspath: String

        init(_ x: Int, _ y: Int, _ z: Int) throws {
            var template = Array("/tmp/foldcam-accel-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw SystemCallError("mkdtemp", Errno(rawValue: errno)) }
            syspath = String(cString: made)
            try set(x, y, z)
        }

        /// Rewrites the axes in place, as sysfs changes a value (the driver keeps them open).
        func set(_ x: Int, _ y: Int, _ z: Int) throws {
            for (axis, value) in zip(["x", "y", "z"], [x, y, z]) {
                let path = syspath + "/in_accel_\(axis)_raw"
                let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                guard fd >= 0 else { throw SystemCallError("open \(path)", Errno(rawValue: errno)) }
                let bytes = Array(String(value).utf8)
                let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                guard written == bytes.count else { throw SystemCallError("write \(path)", Errno(rawValue: errno)) }
            }
        }

        func record(_ location: String) -> UdevRecord {
            UdevRecord(syspath: syspath, sysname: "iio:device-\(location)", subsystem: "iio", devnode: nil,
                       properties: ["ACCEL_LOCATION": location], attributes: ["name": "accel_3d", "in_accel_x_raw": "0"])
        }

        deinit {
            for name in Directory.names(in: syspath) { unlink(syspath + "/" + name) }
            rmdir(syspath)
        }
    }

    static func sensors(_ events: [InputEvent]) -> [Int] {
        events.compactMap { if case let .accelerometer(sensor, _) = $0 { return sensor } else { return nil } }.sorted()
    }

    @Test func aStillBaseIsPostedBesideAMovingLid() throws {
        let rig = try Fixtures.rig("convertible")
        let base = try FakeAccelerometer(0, -1000, 0)
        let display = try FakeAccelerometer(0, -1000, 0)
        let sensors = SensorSet(rig: rig, log: Log(threshold: .error))
        _ = sensors.add(base.record("base"))
        _ = sensors.add(display.record("display"))
        let baseIndex = try #require(rig.accelerometerIndex("base"))
        let displayIndex = try #require(rig.accelerometerIndex("display"))
        // Nothing moved: nothing is posted.
        #expect(sensors.poll(atMilliseconds: 100).isEmpty)
        // The lid folds; the base lies still: both are posted, the base with its current reading.
        try display.set(0, -707, -707)
        let events = sensors.poll(atMilliseconds: 200)
        #expect(Self.sensors(events) == [baseIndex, displayIndex].sorted())
        // Engine-level: those events give a new hinge angle where the lid's reading alone would not.
        var engine = FoldEngine(rig: rig)
        _ = engine.apply(.accelerometer(sensor: baseIndex, reading: Vector3(0, -1000, 0)))
        _ = engine.apply(.accelerometer(sensor: displayIndex, reading: Vector3(0, -1000, 0)))
        let before = engine.state.hingeAngles
        var lidOnly = engine
        for event in events where Self.sensors([event]) == [displayIndex] { _ = lidOnly.apply(event) }
        var both = engine
        for event in events { _ = both.apply(event) }
        #expect(lidOnly.state.hingeAngles == before)
        #expect(both.state.hingeAngles != before, "\(both.state.hingeAngles)")
    }
}
