import FoldcamPlatform

/// Fresh reads of sysfs attribute files (libudev caches attribute values per device object, so
/// polling reads the files). Blocking: device thread only.
enum SysfsAttributes {
    static func read(_ syspath: String, _ attribute: String) throws(DeviceError) -> String {
        do { return try FileContents.readAttribute(syspath + "/" + attribute, subject: syspath, call: attribute) } catch { throw .failed(error) }
    }

    /// Writes a value (sysfs takes it in one write).
    static func write(_ syspath: String, _ attribute: String, _ value: String) throws(DeviceError) {
        do { try FileContents.writeAttribute(syspath + "/" + attribute, value, subject: syspath, call: attribute) } catch { throw .failed(error) }
    }

    /// A number from the first attribute of `names` that exists; nil when none does.
    static func number(_ syspath: String, _ names: [String]) throws(DeviceError) -> Double? {
        for name in names {
            let text: String
            do { text = try read(syspath, name) } catch { if error.errno == .noEntry { continue } else { throw error } }
            guard let value = IIOValue.parse(text) else {
                throw .garbage(device: syspath, call: "read \(name)", what: "\"\(text.trimmingWhitespace)\" is not a number")
            }
            return value
        }
        return nil
    }

    /// The names in a sysfs directory of the device (scan_elements, for one).
    static func names(_ syspath: String, _ directory: String) -> [String] {
        Directory.names(in: syspath + "/" + directory)
    }
}
