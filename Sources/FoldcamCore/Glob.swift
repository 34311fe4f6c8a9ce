/// A shell-style pattern over a whole string: `*` any run of characters, `?` one character,
/// everything else itself (case-sensitive, as hwdb and libinput's quirks match DMI).
public struct Glob: Sendable, Equatable, CustomStringConvertible {
    public let pattern: String

    public init(_ pattern: String) {
        self.pattern = pattern
    }

    public var description: String { pattern }

    /// True when the pattern has no wildcard: it names one value.
    public var isLiteral: Bool { !pattern.contains("*") && !pattern.contains("?") }

    public func matches(_ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        // Iterative match with one backtrack point per `*`: linear in practice, never exponential.
        var (pi, ti) = (0, 0)
        var star: (p: Int, t: Int)?
        while ti < t.count {
            if pi < p.count, p[pi] == "*" {
                star = (pi, ti)
                pi += 1
            } else if pi < p.count, p[pi] == "?" || p[pi] == t[ti] {
                pi += 1
                ti += 1
            } else if let resume = star {
                pi = resume.p + 1
                ti = resume.t + 1
                star = (resume.p, resume.t + 1)
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
