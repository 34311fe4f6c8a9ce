/// Text from outside the daemon made safe to log and to echo back: what a client sent, what a
/// rig or configuration file says, what a state file holds, a process's command name. The one
/// function every such text goes through on its way to the journal or an error reply:
///
/// - escaped: control characters (C0, C1, DEL), line and paragraph separators, and every Unicode
///   format character (category Cf: the bidi controls U+202A–U+202E and U+2066–U+2069, the
///   zero-width U+200B–U+200D, U+2060, U+FEFF, the soft hyphen, …) become `\u{…}`, so a newline
///   cannot start a forged journal record, an escape sequence cannot drive a terminal, and a
///   right-to-left override cannot make a line read differently from what it says;
/// - cut: longer text keeps its first `limit` characters and says how long it was, so a 1 MB
///   name costs a short line, not 1 MB of journal.
public enum ClientText {
    /// A number as the user typed it: `400` for 400.0, `80.5` for 80.5.
    public static func number(_ value: Double) -> String { numberText(value) }

    /// `1 camera`, `3 cameras`: a count with its noun (plural by adding "s").
    public static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// Characters of outside text kept in a log line or an error message.
    public static let defaultLimit = 64

    /// `"text"`, escaped and cut, with `\"` and `\\` escaped too (the quotes are unambiguous).
    public static func quoted(_ text: String, limit: Int = defaultLimit) -> String {
        let (body, cut) = escape(text, limit: limit, quoting: true)
        return "\"" + body + "\"" + (cut ? "… (\(text.utf8.count) bytes)" : "")
    }

    /// The text escaped and cut, without quotes: for a whole message that holds outside text
    /// (a decoding error naming a key from a file), where quotes in it are the message's own.
    public static func escaped(_ text: String, limit: Int) -> String {
        let (body, cut) = escape(text, limit: limit, quoting: false)
        return cut ? body + "… (\(text.utf8.count) bytes)" : body
    }

    /// Whether a scalar must not reach a log line or a reply as it is.
    public static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }

    private static func escape(_ text: String, limit: Int, quoting: Bool) -> (String, cut: Bool) {
        var result = ""
        var kept = 0
        for scalar in text.unicodeScalars {
            if kept == limit { return (result, true) }
            kept += 1
            switch scalar {
            case "\"" where quoting: result += "\\\""
            case "\\" where quoting: result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if mustEscape(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return (result, false)
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
