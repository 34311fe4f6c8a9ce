/// V4L2 pixel format codes: four ASCII characters packed little-endian ("YUYV" = 0x56595559).
/// Bit 31 is V4L2's big-endian flag (`v4l2_fourcc_be`, e.g. `V4L2_PIX_FMT_Y16_BE`); such a code is
/// written as its four characters and "-BE" ("Y16 -BE"), as v4l2-ctl writes it.
public enum FourCC {
    /// `V4L2_PIX_FMT_FLAG_BE`-style marker: the high bit of the last character.
    static let bigEndianFlag: UInt32 = 1 << 31
    static let bigEndianSuffix = "-BE"

    /// The code as text, or nil when a byte is not printable ASCII (a garbage answer).
    public static func text(_ code: UInt32) -> String? {
        let bigEndian = code & bigEndianFlag != 0
        let characters = code & ~bigEndianFlag
        var result = ""
        for shift in stride(from: 0, to: 32, by: 8) {
            let byte = UInt8((characters >> UInt32(shift)) & 0xff)
            guard (0x20...0x7e).contains(byte) else { return nil }
            result.append(Character(Unicode.Scalar(byte)))
        }
        return bigEndian ? result + bigEndianSuffix : result
    }

    public static func code(_ text: String) -> UInt32 {
        var code: UInt32 = 0
        for (index, byte) in text.utf8.prefix(4).enumerated() { code |= UInt32(byte) << UInt32(8 * index) }
        if text.utf8.count == 4 + bigEndianSuffix.utf8.count, text.hasSuffix(bigEndianSuffix) { code |= bigEndianFlag }
        return code
    }

    /// Formats that carry depth rather than colour (Z16, Intel's INZI/Z16 variants, 16-bit grey depth).
    public static let depthFormats: Set<String> = ["Z16 ", "INZI", "INVZ", "INVR", "ZT16"]
}
