/// Lets one warning per key through per interval and counts the rest, so a sensor answering
/// garbage twenty times a second fills the journal with one line every ten seconds.
public struct WarningLimiter: Sendable {
    public let intervalMilliseconds: Int
    private var lastLogged: [String: Int] = [:]
    private var suppressed: [String: Int] = [:]

    public init(intervalMilliseconds: Int = 10_000) {
        self.intervalMilliseconds = intervalMilliseconds
    }

    /// The text to log now (with how many were held back since), or nil to stay quiet.
    public mutating func admit(key: String, _ message: String, atMilliseconds now: Int) -> String? {
        if let last = lastLogged[key], now - last < intervalMilliseconds {
            suppressed[key, default: 0] += 1
            return nil
        }
        lastLogged[key] = now
        let held = suppressed.removeValue(forKey: key) ?? 0
        return held == 0 ? message : "\(message) (\(held) similar dropped since the last report)"
    }
}
