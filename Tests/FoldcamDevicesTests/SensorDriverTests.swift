import Foundation
import FoldcamCore
@testable import FoldcamDevices
import FoldcamIO
import FoldcamPlatform
import Glibc
import Testing

/// The sensor driver table on a fake sysfs directory (plain files) and a FIFO standing in for
/// the IIO buffer's device node: which driver udev's description selects, and what each reads.
@Suite struct SensorDriverTests {
    /// A hinge device directory: `in_angl0_raw` in degrees with a radians-per-degree scale, and
    /// (when `buffered`) the scan_elements and buffer attributes plus a FIFO as its node.
    final class FakeHinge {
        let syspath: String
        let devnode: String

        init(raw: String, buffered: Bool) throws {
            var template = Array("/tmp/foldcam-iio-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw SystemCallError("mkdtemp", Errno(rawValue: errno)) }
            syspath = String(cString: made)
            devnode = syspath + "/iio:device0"
            try set("in_angl0_raw", raw)
            try set("in_angl0_scale", "0.017453293")
            guard buffered else { return }
            mkdir(syspath + "/scan_elements", 0o755)
            mkdir(syspath + "/buffer", 0o755)
            try set("scan_elements/in_angl0_en", "0")
            try set("scan_elements/in_angl0_type", "le:s32/32>>0")
            try set("scan_elements/in_timestamp_en", "1")
            try set("buffer/enable", "0")
            try set("buffer/length", "2")
            mkfifo(devnode, 0o600)
        }

        /// Writes the value into the same file, as sysfs changes a value (a polled driver keeps
        /// the attribute open; a file renamed over it would go unseen, as no sysfs file is).
        func set(_ attribute: String, _ value: String) throws {
            let path = syspath + "/" + attribute
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw SystemCallError("open \(path)", Errno(rawValue: errno)) }
            defer { close(fd) }
            let bytes = Array(value.utf8)
            guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { throw SystemCallError("write \(path)", Errno(rawValue: errno)) }
        }

        /// Puts a new file in the attribute's place (what no sysfs attribute does).
        func replace(_ attribute: String, _ value: String) throws {
            try FileContents.replaceAtomically(Array(value.utf8), directory: syspath, name: attribute)
        }

        func attribute(_ name: String) throws -> String {
            String(decoding: try FileContents.read(syspath + "/" + name, limit: 100), as: UTF8.self)
        }

        var record: UdevRecord {
            UdevRecord(syspath: syspath, sysname: "iio:device0", subsystem: "iio", devnode: devnode, properties: [:],
                       attributes: ["name": "hinge", "in_angl0_raw": "90"])
        }

        func remove() {
            for directory in ["scan_elements", "buffer", ""] {
                let path = directory.isEmpty ? syspath : syspath + "/" + directory
                for name in Directory.names(in: path) { unlink(path + "/" + name) }
                rmdir(path)
            }
        }

        deinit { remove() }
    }

    static let quiet = Log(threshold: .error)

    @Test func aHingeWithoutABufferIsPolled() throws {
        let hinge = try FakeHinge(raw: "90", buffered: false)
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet)
        let first = sensors.add(hinge.record)
        #expect(first.count == 1)
        guard case let .hingeAngle(index, degrees)? = first.first else { Issue.record("no angle: \(first)"); return }
        #expect(index == 0 && abs(degrees - 90) < 0.001)
        #expect(sensors.descriptor(hinge.syspath) == nil)
        try hinge.set("in_angl0_raw", "100")
        guard case let .hingeAngle(_, next)? = sensors.poll(atMilliseconds: 1000).first else { Issue.record("no polled angle"); return }
        #expect(abs(next - 100) < 0.001)
    }

    @Test func aSwitchRestsThePolledHinge() throws {
        let hinge = try FakeHinge(raw: "90", buffered: false)
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet)
        _ = sensors.add(hinge.record)
        sensors.lidClosed = true
        try hinge.set("in_angl0_raw", "95")
        #expect(sensors.poll(atMilliseconds: 1000).isEmpty)
        sensors.lidClosed = false
        #expect(sensors.poll(atMilliseconds: 2000).count == 1)
    }

    @Test func aHintSwitchLeavesThePolledHingeRead() throws {
        // A hint is one vote against the sensor: the sensor must keep voting.
        let hinge = try FakeHinge(raw: "90", buffered: false)
        let text = try #require(RigPresets.json("duo")).replacingOccurrences(
            of: #""lid": {"hinge": "fold", "angle": 0}"#, with: #""lid": {"hinge": "fold", "angle": 0, "mode": "hint"}"#)
        let sensors = SensorSet(rig: try RigDecoder.decode(json: text), log: Self.quiet)
        _ = sensors.add(hinge.record)
        sensors.lidClosed = true
        try hinge.set("in_angl0_raw", "95")
        #expect(sensors.poll(atMilliseconds: 1000).count == 1)
    }

    @Test func aHingeWithABufferIsReadFromItsNode() throws {
        let hinge = try FakeHinge(raw: "90", buffered: true)
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet)
        // Buffered samples are not polled, not even the first.
        #expect(sensors.add(hinge.record).isEmpty)
        guard let descriptor = sensors.descriptor(hinge.syspath) else { Issue.record("no buffer descriptor"); return }
        #expect(try hinge.attribute("scan_elements/in_angl0_en") == "1")
        #expect(try hinge.attribute("scan_elements/in_timestamp_en") == "0")
        #expect(try hinge.attribute("buffer/enable") == "1")
        let writer = try FileDescriptor.open(hinge.devnode, .writeOnly)
        // Two samples in one read: the newest (120°) wins.
        let samples: [Int32] = [110, 120]
        let bytes = samples.flatMap { value in withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        try bytes.withBytes { raw throws(SystemCallError) in try writer.writeAll(raw) }
        var set = PollSet()
        set.append(descriptor.rawValue)
        #expect(try set.wait(timeoutMilliseconds: 10_000) == 1)
        let (events, vanished) = sensors.readReady(hinge.syspath, atMilliseconds: 1000)
        #expect(!vanished)
        guard case let .hingeAngle(_, degrees)? = events.first else { Issue.record("no angle from the buffer: \(events)"); return }
        #expect(abs(degrees - 120) < 0.001)
        // Closing the driver leaves the device as found.
        #expect(sensors.remove(syspath: hinge.syspath) == [.hingeSensorLost(hinge: 0)])
        #expect(try hinge.attribute("buffer/enable") == "0")
    }

    @Test func oneShotReadsNeverTouchTheBuffer() throws {
        let hinge = try FakeHinge(raw: "45", buffered: true)
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet, useBuffers: false)
        guard case let .hingeAngle(_, degrees)? = sensors.add(hinge.record).first else { Issue.record("no polled angle"); return }
        #expect(abs(degrees - 45) < 0.001)
        #expect(sensors.descriptor(hinge.syspath) == nil)
        #expect(try hinge.attribute("buffer/enable") == "0")
    }

    @Test func aVanishedSensorHandsItsHingeBack() throws {
        // A plain file stays readable through the descriptor a polled driver keeps open, even
        // unlinked (sysfs answers ENODEV instead). So here the descriptor fails another way
        // first: `in_angl0_raw` is a directory, which opens but does not read (EISDIR). That
        // failure closes it; with the device gone the next read cannot reopen it, and the
        // hinge is handed back as after any read that finds the device gone.
        let hinge = try FakeHinge(raw: "90", buffered: false)
        unlink(hinge.syspath + "/in_angl0_raw")
        mkdir(hinge.syspath + "/in_angl0_raw", 0o755)
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Self.quiet)
        #expect(sensors.add(hinge.record).isEmpty)
        #expect(!sensors.isEmpty)
        rmdir(hinge.syspath + "/in_angl0_raw")
        hinge.remove()
        #expect(sensors.poll(atMilliseconds: 1000) == [.hingeSensorLost(hinge: 0)])
        #expect(sensors.isEmpty)
    }
}
