import FoldcamCore
@testable import FoldcamDevices
import FoldcamIO
import FoldcamV4L2
import Testing

@Suite struct SensorParsingTests {
    func iio(_ properties: [String: String], _ attributes: [String: String]) -> UdevRecord {
        UdevRecord(syspath: "/sys/bus/iio/devices/iio:device0", sysname: "iio:device0", subsystem: "iio", devnode: nil, properties: properties, attributes: attributes)
    }

    @Test func hingeSensorIsFoundByNameOrProperty() throws {
        let duo = try Fixtures.rig("duo")
        #expect(IIOClassifier.classify(iio([:], ["name": "hinge", "in_angl0_raw": "90"]), rig: duo) == .hinge(hinge: 0, matchedBy: "IIO name \"hinge\" (the rig's only hinge, fold)"))
        #expect(IIOClassifier.classify(iio(["FOLDCAM_HINGE": "fold"], ["name": "custom", "in_angl0_raw": "90"]), rig: duo) == .hinge(hinge: 0, matchedBy: "udev FOLDCAM_HINGE=fold"))
        guard case .skipped = IIOClassifier.classify(iio(["FOLDCAM_HINGE": "nope"], ["in_angl0_raw": "1"]), rig: duo) else { Issue.record("unknown hinge id must be skipped"); return }
    }

    @Test func accelerometersArePlacedByLocationWithTheirMatrix() throws {
        let convertible = try Fixtures.rig("convertible")
        let base = IIOClassifier.classify(iio(["ACCEL_LOCATION": "base", "ACCEL_MOUNT_MATRIX": "-1, 0, 0; 0, 1, 0; 0, 0, -1"], ["in_accel_x_raw": "0", "mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1"]), rig: convertible)
        #expect(base == .accelerometer(sensor: 0, location: "base", matrix: MountMatrix(rows: [Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, -1)]), matrixSource: "udev ACCEL_MOUNT_MATRIX"))
        // Without ACCEL_LOCATION udev's default is "display"; the kernel's matrix is used.
        let display = IIOClassifier.classify(iio([:], ["in_accel_x_raw": "0", "in_accel_mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1"]), rig: convertible)
        #expect(display == .accelerometer(sensor: 1, location: "display", matrix: MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")!, matrixSource: "sysfs in_accel_mount_matrix"))
        guard case .skipped = IIOClassifier.classify(iio(["ACCEL_MOUNT_MATRIX": "1, 0; 0, 1"], ["in_accel_x_raw": "0"]), rig: convertible) else { Issue.record("a bad matrix must be skipped"); return }
        guard case .skipped = IIOClassifier.classify(iio([:], ["in_accel_x_raw": "0"]), rig: try Fixtures.rig("kiosk")) else { Issue.record("a rig without accelerometers skips them"); return }
    }

    @Test func aModelsHingeCorrectionIsNamedAndABadOneSkipsTheSensor() throws {
        let duo = try Fixtures.rig("duo")
        let corrected = IIOClassifier.classify(iio(["FOLDCAM_HINGE": "fold", "FOLDCAM_HINGE_SIGN": "-1", "FOLDCAM_HINGE_OFFSET": "360"], ["in_angl0_raw": "90"]), rig: duo)
        #expect(corrected == .hinge(hinge: 0, matchedBy: "udev FOLDCAM_HINGE=fold, corrected by sign -1, offset 360°"))
        let bad = IIOClassifier.classify(iio(["FOLDCAM_HINGE": "fold", "FOLDCAM_HINGE_SIGN": "-2"], ["in_angl0_raw": "90"]), rig: duo)
        #expect(bad == .skipped(reason: #"FOLDCAM_HINGE_SIGN="-2" is not 1 or -1; not using this hinge sensor"#))
    }

    @Test func aSwappedAccelerometerIsTheOtherOfThePair() throws {
        let convertible = try Fixtures.rig("convertible")
        let swapped = IIOClassifier.classify(iio(["ACCEL_LOCATION": "display", "FOLDCAM_ACCEL_SWAP": "1"], ["in_accel_x_raw": "0"]), rig: convertible)
        guard case let .accelerometer(sensor, location, _, _) = swapped else { Issue.record("not an accelerometer: \(swapped)"); return }
        #expect(convertible.accelerometers[sensor].id == "base")
        #expect(location == "display")
    }

    @Test func aCorrectedHingeReadsCorrected() throws {
        let hinge = try SensorDriverTests.FakeHinge(raw: "30", buffered: false)
        var record = hinge.record
        // The duo's hinge opens to 180°: a sensor counting down from there reads 30 at 150°.
        record.properties = ["FOLDCAM_HINGE_SIGN": "-1", "FOLDCAM_HINGE_OFFSET": "180"]
        let sensors = SensorSet(rig: try Fixtures.rig("duo"), log: Log(threshold: .error))
        guard case let .hingeAngle(_, degrees)? = sensors.add(record).first else { Issue.record("no first angle"); return }
        #expect(abs(degrees - 150) < 0.001)
    }

    @Test func mountMatrixApplies() throws {
        let matrix = try #require(MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1"))
        #expect(matrix.apply(Vector3(1, 2, 3)) == Vector3(-2, 1, 3))
        #expect(MountMatrix(parsing: "1, 0, 0; 0, 1, 0; 0, 0, x") == nil)
        #expect(MountMatrix(parsing: "1, 0, 0, 0; 0, 1, 0; 0, 0, 1") == nil)
    }

    @Test func hingeValuesFollowTheIIOABI() {
        // Intel's HID hinge driver and the e2e test module: raw degrees, scale to radians.
        let degrees = IIOValue.hingeDegrees(raw: 90, scale: Double.pi / 180, offset: 0)
        #expect(abs(degrees - 90) < 1e-9)
        #expect(abs(IIOValue.hingeDegrees(raw: 80, scale: Double.pi / 180, offset: 10) - 90) < 1e-9)
        #expect(IIOValue.parse(" 0.017453292\n") == 0.017453292)
        #expect(IIOValue.parse("nan") == nil)
        #expect(IIOValue.parse("") == nil)
    }

    @Test func readingFilterDropsImpossibleReadings() {
        var filter = ReadingFilter(range: 0...180)
        #expect(filter.check(.nan, atMilliseconds: 0) == .nonFinite)
        #expect(filter.check(200, atMilliseconds: 0) == .outOfRange(200))
        #expect(filter.check(90, atMilliseconds: 0) == nil)
        #expect(filter.check(100, atMilliseconds: 50) == nil)  // 200°/s: a hand can do that
        #expect(filter.check(170, atMilliseconds: 100) == .tooFast(degreesPerSecond: 1400))
        #expect(filter.check(170, atMilliseconds: 1000) == nil)  // after a pause a big step is fine
    }

    @Test func nonFiniteReadingsNeverLeaveTheDeviceLayer() {
        var filter = ReadingFilter(range: 0...360)
        #expect(filter.check(.infinity, atMilliseconds: 0) == .nonFinite)
        #expect(filter.check(-.infinity, atMilliseconds: 0) == .nonFinite)
        // A raw value that overflows once scaled is caught after scaling, where the filter runs.
        #expect(filter.check(IIOValue.hingeDegrees(raw: 1e308, scale: 10, offset: 0), atMilliseconds: 0) == .nonFinite)
        // Accelerometers: finite components whose length overflows have no direction either.
        #expect(IIOAccelerometerDriver.accelerationProblem(Vector3(1e300, 1e300, 1e300)) != nil)
        #expect(IIOAccelerometerDriver.accelerationProblem(Vector3(-1e308, 0, 1e308)) != nil)
        #expect(IIOAccelerometerDriver.accelerationProblem(MountMatrix(rows: [Vector3(1e308, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]).apply(Vector3(10, 0, 0))) != nil)
        #expect(IIOAccelerometerDriver.accelerationProblem(Vector3(.nan, 0, 9.8)) != nil)
        #expect(IIOAccelerometerDriver.accelerationProblem(Vector3(0, -9.8, 0)) == nil)
    }

    @Test func warningsAreRateLimitedAndCounted() {
        var limiter = WarningLimiter(intervalMilliseconds: 10_000)
        #expect(limiter.admit(key: "a", "bad", atMilliseconds: 0) == "bad")
        #expect(limiter.admit(key: "a", "bad", atMilliseconds: 50) == nil)
        #expect(limiter.admit(key: "b", "other", atMilliseconds: 60) == "other")
        #expect(limiter.admit(key: "a", "bad", atMilliseconds: 100) == nil)
        #expect(limiter.admit(key: "a", "bad", atMilliseconds: 10_001) == "bad (2 similar dropped since the last report)")
    }

    @Test func switchTranslation() {
        #expect(SwitchTranslation.event(.lid, on: true) == .lidSwitch(closed: true))
        #expect(SwitchTranslation.event(.tabletMode, on: false) == .tabletModeSwitch(on: false))
    }

    @Test func fourCC() {
        #expect(FourCC("YUYV").text == "YUYV")
        #expect(FourCC("YUYV").rawValue == 0x5659_5559)
        #expect(FourCC(rawValue: 0x0000_0001).text == nil)
        #expect(FourCC(rawValue: 0x0000_0001).description == "0x1")
        #expect(FourCC("Z16 ").name == "Z16")
        #expect(FourCC("Z16 ").isDepth && !FourCC.yuyv.isDepth)
        // V4L2_PIX_FMT_Y16_BE = v4l2_fourcc_be('Y', '1', '6', ' '), which vivid lists: not garbage.
        #expect(FourCC(rawValue: 0xa036_3159).text == "Y16 -BE")
        #expect(FourCC("Y16 -BE").rawValue == 0xa036_3159)
        #expect(FourCC(rawValue: 0x8000_0001).text == nil)
    }
}

@Suite struct IIOScanTypeTests {
    @Test func parsesTheKernelsTypeStrings() {
        #expect(IIOScanType(parsing: "le:s32/32>>0\n") == IIOScanType(bigEndian: false, signed: true, realBits: 32, storageBits: 32, shift: 0))
        #expect(IIOScanType(parsing: "be:u12/16>>4") == IIOScanType(bigEndian: true, signed: false, realBits: 12, storageBits: 16, shift: 4))
        #expect(IIOScanType(parsing: "le:s12/16X2>>4") == nil)  // repeated channels are not for hinges
        #expect(IIOScanType(parsing: "xx:s32/32>>0") == nil)
        #expect(IIOScanType(parsing: "le:s40/32>>0") == nil)
    }

    @Test func decodesSignExtendedShiftedValues() throws {
        let le32 = try #require(IIOScanType(parsing: "le:s32/32>>0"))
        #expect(le32.decode([0x78, 0, 0, 0]) == 120)
        #expect(le32.decode([0xFF, 0xFF, 0xFF, 0xFF]) == -1)
        let be12 = try #require(IIOScanType(parsing: "be:s12/16>>4"))
        #expect(be12.decode([0xFF, 0xF0]) == -1)
        #expect(be12.decode([0x01, 0x00]) == 16)
        let u16 = try #require(IIOScanType(parsing: "le:u16/16>>0"))
        #expect(u16.decode([0xFF, 0xFF]) == 65535)
    }
}
