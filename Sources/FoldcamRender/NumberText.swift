import FoldcamCore

/// Number formatting without Foundation: the standard library's `description` prints "180.0"
/// and long binary fractions, which read badly in pictures and legends.
enum NumberText {
    /// Fixed point with up to two decimals and no trailing zeros ("12.5", "-3", "0.07").
    static func compact(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = hundredths.magnitude
        let whole = magnitude / 100
        let fraction = magnitude % 100
        if fraction == 0 { return sign + String(whole) }
        if fraction % 10 == 0 { return sign + String(whole) + "." + String(fraction / 10) }
        return sign + String(whole) + "." + (fraction < 10 ? "0" : "") + String(fraction)
    }

    /// An angle for people: "90°", "112.5°".
    static func degrees(_ value: Double) -> String { compact(value) + "°" }

    /// A vector as written in rig files: "(0, -1, 0)".
    static func vector(_ v: Vector3) -> String {
        "(" + [v.x, v.y, v.z].map(compact).joined(separator: ", ") + ")"
    }
}
