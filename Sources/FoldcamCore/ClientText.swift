/// Text a client sent, made safe to log and to echo back: quoted, control characters escaped
/// (a newline in a method name would otherwise start a forged journal record) and cut to a
/// bound (a 64 KiB name would otherwise flood the journal and every error reply).
public enum ClientText {
    /// A number as the user typed it: `400` for 400.0, `80.5` for 80.5.
    public static func number(_ value: Double) -> String { numberText(value) }

    /// `1 camera`, `3 cameras`: a count with its noun (plural by adding "s").
    public static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// Characters of client text kept in a log line or an error message.
    public static let defaultLimit = 64

    /// `"text"` with `\n`, `\t`, `\"`, `\\` and other control characters escaped; longer text
    /// keeps its first `limit` characters and says how long it was.
    public static func quoted(_ text: String, limit: Int = defaultLimit) -> String {
        var result = "\""
        var kept = 0
        for scalar in text.unicodeScalars {
            if kept == limit {
                result += "\"… (\(text.utf8.count) bytes)"
                return result
            }
            kept += 1
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                // C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

/// The valid name closest to a misspelt one, for "unknown X; did you mean Y?" messages.
public enum NearestName {
    /// The candidate with the smallest edit distance to `name` (case-insensitive), if that
    /// distance is small enough to be a plausible typo: at most a third of the longer name.
    public static func suggestion(for name: String, among candidates: [String]) -> String? {
        // Bounded work: a name longer than any candidate by far is not a typo of one.
        let longest = candidates.map(\.count).max() ?? 0
        guard name.count <= longest * 2 + 2 else { return nil }
        let typed = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(1, max(typed.count, best.name.count) / 3) else { return nil }
        return best.name
    }

    /// "; did you mean \"Y\"?" or "" — ready to append to an error message.
    public static func hint(for name: String, among candidates: [String]) -> String {
        suggestion(for: name, among: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// Levenshtein distance, one row at a time.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
