/// V4L2 pixel format codes: four ASCII characters packed little-endian ("YUYV" = 0x56595559).
public enum FourCC {
    /// The code as text, or nil when a byte is not printable ASCII (a garbage answer).
    public static func text(_ code: UInt32) -> String? {
        var result = ""
        for shift in stride(from: 0, to: 32, by: 8) {
            let byte = UInt8((code >> UInt32(shift)) & 0xff)
            guard (0x20...0x7e).contains(byte) else { return nil }
            result.append(Character(Unicode.Scalar(byte)))
        }
        return result
    }

    public static func code(_ text: String) -> UInt32 {
        var code: UInt32 = 0
        for (index, byte) in text.utf8.prefix(4).enumerated() { code |= UInt32(byte) << UInt32(8 * index) }
        return code
    }

    /// Formats that carry depth rather than colour (Z16, Intel's INZI/Z16 variants, 16-bit grey depth).
    public static let depthFormats: Set<String> = ["Z16 ", "INZI", "INVZ", "INVR", "ZT16"]
}
