/// A V4L2 pixel format code: four ASCII characters packed little-endian ("YUYV" = 0x56595559).
/// The one spelling of a pixel format below the protocol (which writes its text: "NV12").
/// Bit 31 is V4L2's big-endian flag (`v4l2_fourcc_be`, e.g. `V4L2_PIX_FMT_Y16_BE`); such a code is
/// written as its four characters and "-BE" ("Y16 -BE"), as v4l2-ctl writes it.
public struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// From text such as "YUYV" or "Y16 -BE" (only the first four characters are the code).
    public init(_ text: String) {
        var code: UInt32 = 0
        for (index, byte) in text.utf8.prefix(4).enumerated() { code |= UInt32(byte) << UInt32(8 * index) }
        if text.utf8.count == 4 + Self.bigEndianSuffix.utf8.count, text.hasSuffix(Self.bigEndianSuffix) { code |= Self.bigEndianFlag }
        rawValue = code
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    public static let nv12: FourCC = "NV12"
    public static let yuyv: FourCC = "YUYV"

    /// `V4L2_PIX_FMT_FLAG_BE`-style marker: the high bit of the last character.
    static let bigEndianFlag: UInt32 = 1 << 31
    static let bigEndianSuffix = "-BE"

    /// The code as text, or nil when a byte is not printable ASCII (a garbage answer).
    public var text: String? {
        let characters = rawValue & ~Self.bigEndianFlag
        var result = ""
        for shift in stride(from: 0, to: 32, by: 8) {
            let byte = UInt8((characters >> UInt32(shift)) & 0xff)
            guard (0x20...0x7e).contains(byte) else { return nil }
            result.append(Character(Unicode.Scalar(byte)))
        }
        return rawValue & Self.bigEndianFlag != 0 ? result + Self.bigEndianSuffix : result
    }

    /// The text, or the number in hex when it is not text.
    public var description: String { text ?? "0x\(String(rawValue, radix: 16))" }

    /// The text without the padding spaces of short codes ("Z16 " is "Z16"), as modes list it.
    public var name: String {
        var text = description
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Formats that carry depth rather than colour (Z16, Intel's INZI/Z16 variants, 16-bit grey depth).
    public var isDepth: Bool { Self.depthFormats.contains(self) }

    static let depthFormats: Set<FourCC> = ["Z16 ", "INZI", "INVZ", "INVR", "ZT16"]

    /// Raw Bayer mosaics (videodev2.h's V4L2_PIX_FMT_S*8/10/12/14/16, their packed and IPU3
    /// variants): frames that need an ISP before anyone can show them.
    public var isRawBayer: Bool { Self.rawBayerFormats.contains(self) }

    static let rawBayerFormats: Set<FourCC> = [
        "BA81", "GBRG", "GRBG", "RGGB", "BG10", "GB10", "BA10", "RG10", "BG12", "GB12", "BA12", "RG12",
        "BG14", "GB14", "GR14", "RG14", "BYR2", "GB16", "GR16", "RG16",
        "pBAA", "pGAA", "pgAA", "pRAA", "pBCC", "pGCC", "pgCC", "pRCC", "pBEE", "pGEE", "pgEE", "pREE",
        "BD10", "GD10", "Gd10", "RD10", "ip3b", "ip3g", "ip3G", "ip3r",
    ]
}
