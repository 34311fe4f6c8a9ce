/// What `foldcamctl report` leaves out of the text users post: serial numbers, UUIDs and
/// hardware addresses. Pure, so the rules are tested from a table.
public enum ReportRedaction {
    public static let placeholder = "<redacted>"

    /// Property or attribute names whose value identifies one unit rather than a model.
    public static func isIdentifying(_ key: String) -> Bool {
        let upper = key.uppercased()
        return ["SERIAL", "UUID", "MAC", "ADDRESS", "UNIQ"].contains { upper.containsText($0) }
    }

    /// `KEY=value` with the value replaced when the key identifies a unit, and any hardware
    /// address inside it masked either way.
    public static func property(_ key: String, _ value: String) -> String {
        "\(key)=\(isIdentifying(key) ? placeholder : addressesMasked(value))"
    }

    /// Six colon- or dash-separated hex pairs (a MAC or Bluetooth address) become XX:XX:...
    public static func addressesMasked(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        func isHex(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) || ("a"..."f").contains(s) || ("A"..."F").contains(s) }
        while index < scalars.count {
            let end = index + 17
            if end <= scalars.count, index == 0 || !(isHex(scalars[index - 1]) || scalars[index - 1] == ":" || scalars[index - 1] == "-") {
                let candidate = scalars[index..<end]
                let separator = candidate[candidate.startIndex + 2]
                // Exactly six pairs: not part of a longer run of hex pairs.
                let bounded = end == scalars.count || !(isHex(scalars[end]) || scalars[end] == separator)
                let matches = bounded && (separator == ":" || separator == "-") && candidate.enumerated().allSatisfy { offset, s in offset % 3 == 2 ? s == separator : isHex(s) }
                if matches {
                    output.append(contentsOf: "XX:XX:XX:XX:XX:XX".unicodeScalars)
                    index = end
                    continue
                }
            }
            output.append(scalars[index])
            index += 1
        }
        return String(output)
    }
}
