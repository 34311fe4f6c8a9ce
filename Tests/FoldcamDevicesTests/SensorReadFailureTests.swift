@testable import FoldcamDevices
import FoldcamPlatform
import Testing

/// A sysfs read refused with EBUSY (item 4 of issue 26: the desktop's iio-sensor-proxy runs the
/// display accelerometer's buffer, and drivers refuse raw reads meanwhile) is said as such.
@Suite struct SensorReadFailureTests {
    @Test func busyReadsNameTheBufferHolder() {
        let busy = DeviceError.failed(SystemCallError("read", .busy, subject: "/sys/bus/iio/devices/iio:device1/in_accel_x_raw"))
        let text = SensorSet.readFailure(busy)
        #expect(text.hasPrefix("\(busy): another process runs this sensor's IIO buffer (iio-sensor-proxy"))
        #expect(text.contains("decides from the other inputs"))
    }

    @Test func otherFailuresAreSaidAsTheyAre() {
        let gone = DeviceError.failed(SystemCallError("read", .noDevice, subject: "/sys/bus/iio/devices/iio:device1/in_accel_x_raw"))
        #expect(SensorSet.readFailure(gone) == "\(gone)")
    }
}
