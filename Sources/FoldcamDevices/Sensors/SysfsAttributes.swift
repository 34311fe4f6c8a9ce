import FoldcamPlatform
import Glibc

/// Fresh reads of sysfs attribute files (libudev caches attribute values per device object, so
/// polling reads the files). Blocking: device thread only.
enum SysfsAttributes {
    static func read(_ syspath: String, _ attribute: String) throws(DeviceError) -> String {
        let path = syspath + "/" + attribute
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DeviceError(device: syspath, call: "open \(attribute)", .failed(Errno(rawValue: errno))) }
        defer { _ = close(fd) }  // read-only sysfs file: a failed close loses nothing
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count >= 0 { return String(decoding: buffer[..<count], as: UTF8.self) }
            let error = Errno(rawValue: errno)
            if error != .interrupted { throw DeviceError(device: syspath, call: "read \(attribute)", .failed(error)) }
        }
    }

    /// Writes a value (sysfs takes it in one write).
    static func write(_ syspath: String, _ attribute: String, _ value: String) throws(DeviceError) {
        let path = syspath + "/" + attribute
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DeviceError(device: syspath, call: "open \(attribute) for writing", .failed(Errno(rawValue: errno))) }
        defer { _ = close(fd) }  // sysfs reports errors on write, not on close
        var bytes = Array(value.utf8)
        while true {
            let count = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count >= 0 { return }
            let error = Errno(rawValue: errno)
            if error != .interrupted { throw DeviceError(device: syspath, call: "write \(attribute)=\(value)", .failed(error)) }
        }
    }

    /// A number from the first attribute of `names` that exists; nil when none does.
    static func number(_ syspath: String, _ names: [String]) throws(DeviceError) -> Double? {
        for name in names {
            let text: String
            do { text = try read(syspath, name) } catch { if error.kind == .failed(.noEntry) { continue } else { throw error } }
            guard let value = IIOValue.parse(text) else {
                throw DeviceError(device: syspath, call: "read \(name)", .garbage("\"\(text.trimmingWhitespace)\" is not a number"))
            }
            return value
        }
        return nil
    }
}
