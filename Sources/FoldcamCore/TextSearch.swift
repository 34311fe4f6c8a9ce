/// Substring search without _StringProcessing, where the standard `contains` and `replacing`
/// for a string needle live: foldcamd does not load it (it and _RegexParser are about 0.8 MB
/// of resident memory; docs/benchmarks.md, "Idle RSS"). Compared as UTF-8 bytes, which for
/// foldcam's needles (plain ASCII words) finds what the Character-wise search finds.
extension StringProtocol {
    /// Whether `needle` occurs in this text.
    public func containsText(_ needle: some StringProtocol) -> Bool {
        Self.offset(of: Array(needle.utf8), in: Array(utf8)) != nil
    }

    /// This text with the first occurrence of `target` replaced (unchanged without one).
    public func replacingFirstText(_ target: some StringProtocol, with replacement: some StringProtocol) -> String {
        let bytes = Array(utf8)
        let wanted = Array(target.utf8)
        guard let start = Self.offset(of: wanted, in: bytes) else { return String(self) }
        return String(decoding: bytes[..<start] + Array(replacement.utf8) + bytes[(start + wanted.count)...], as: UTF8.self)
    }

    private static func offset(of wanted: [UInt8], in bytes: [UInt8]) -> Int? {
        guard !wanted.isEmpty else { return 0 }
        guard wanted.count <= bytes.count else { return nil }
        for start in 0...(bytes.count - wanted.count) where bytes[start] == wanted[0] {
            if bytes[start..<start + wanted.count].elementsEqual(wanted) { return start }
        }
        return nil
    }
}
