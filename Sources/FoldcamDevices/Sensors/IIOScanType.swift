/// The layout of one IIO buffer channel, from its `scan_elements/<channel>_type` attribute:
/// "[be|le]:[s|u]<bits>/<storage bits>[X<repeat>]>><shift>", e.g. "le:s32/32>>0".
/// - SeeAlso: Documentation/ABI/testing/sysfs-bus-iio, "in_*_type"
public struct IIOScanType: Sendable, Equatable {
    public var bigEndian: Bool
    public var signed: Bool
    public var realBits: Int
    public var storageBits: Int
    public var shift: Int

    public var storageBytes: Int { storageBits / 8 }

    public init(bigEndian: Bool, signed: Bool, realBits: Int, storageBits: Int, shift: Int) {
        self.bigEndian = bigEndian
        self.signed = signed
        self.realBits = realBits
        self.storageBits = storageBits
        self.shift = shift
    }

    /// nil for anything foldcam cannot decode (repeated channels, odd sizes).
    public init?(parsing text: String) {
        let trimmed = text.trimmingWhitespace
        let parts = trimmed.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0] == "le" || parts[0] == "be" else { return nil }
        var rest = Substring(parts[1])
        guard let sign = rest.first, sign == "s" || sign == "u" else { return nil }
        rest = rest.dropFirst()
        let bitsAndShift = rest.split(separator: ">", omittingEmptySubsequences: true)
        guard bitsAndShift.count == 2, let shift = Int(bitsAndShift[1]) else { return nil }
        let sizes = bitsAndShift[0].split(separator: "/")
        guard sizes.count == 2, let real = Int(sizes[0]), let storage = Int(sizes[1]),
              [8, 16, 32, 64].contains(storage), (1...storage).contains(real), shift >= 0, shift + real <= storage else { return nil }
        self.init(bigEndian: parts[0] == "be", signed: sign == "s", realBits: real, storageBits: storage, shift: shift)
    }

    /// The channel's raw value from exactly `storageBytes` bytes.
    public func decode(_ bytes: some Collection<UInt8>) -> Int64 {
        var word: UInt64 = 0
        let ordered = bigEndian ? Array(bytes) : Array(bytes.reversed())
        for byte in ordered { word = word << 8 | UInt64(byte) }
        word >>= UInt64(shift)
        let mask: UInt64 = realBits == 64 ? .max : (1 << UInt64(realBits)) - 1
        word &= mask
        if signed, realBits < 64, word & (1 << UInt64(realBits - 1)) != 0 { word |= ~mask }
        return Int64(bitPattern: word)
    }
}
