/// Parsing and scaling of IIO sysfs values. The kernel's ABI: processed = (raw + offset) × scale,
/// angles in radians, accelerations in m/s² (see Documentation/ABI/testing/sysfs-bus-iio).
public enum IIOValue {
    /// A decimal sysfs value ("90", "-12", "0.017453292"); nil for anything else.
    public static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty, let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    public static func processed(raw: Double, scale: Double, offset: Double) -> Double {
        (raw + offset) * scale
    }

    /// A hinge angle in degrees from an `in_angl` channel (radians after scale and offset).
    public static func hingeDegrees(raw: Double, scale: Double, offset: Double) -> Double {
        processed(raw: raw, scale: scale, offset: offset) * 180 / Double.pi
    }
}
