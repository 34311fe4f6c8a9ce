/// Drops hinge readings that cannot be true: non-finite, outside the hinge's range (beyond the
/// 1° of noise the engine clamps), or changing faster than a hinge can be moved by hand.
/// Pure: time comes in as milliseconds on a monotonic clock.
public struct ReadingFilter: Sendable {
    public enum Rejection: Sendable, Equatable, CustomStringConvertible {
        case nonFinite
        case outOfRange(Double)
        case tooFast(degreesPerSecond: Double)

        public var description: String {
            switch self {
            case .nonFinite: return "not a finite number"
            case let .outOfRange(value): return "\(value) is out of range"
            case let .tooFast(rate): return "jumps at \(Int(rate))°/s, faster than a hinge moves"
            }
        }
    }

    public let range: ClosedRange<Double>
    /// Degrees per second no hinge reaches (a fast flick of a phone is around 400°/s).
    public let maximumRate: Double
    private var last: (value: Double, milliseconds: Int)?

    public init(range: ClosedRange<Double>, maximumRate: Double = 720) {
        self.range = range
        self.maximumRate = maximumRate
    }

    /// nil when accepted (and remembered as the new reference).
    public mutating func check(_ value: Double, atMilliseconds now: Int) -> Rejection? {
        guard value.isFinite else { return .nonFinite }
        guard value >= range.lowerBound - 1, value <= range.upperBound + 1 else { return .outOfRange(value) }
        if let last {
            // Elapsed time since the last accepted reading, so a long pause allows a big step.
            let seconds = Double(max(now - last.milliseconds, 1)) / 1000
            let rate = abs(value - last.value) / seconds
            if rate > maximumRate { return .tooFast(degreesPerSecond: rate) }
        }
        last = (value, now)
        return nil
    }

    /// Forget the reference (after the sensor was away or paused).
    public mutating func reset() { last = nil }
}
