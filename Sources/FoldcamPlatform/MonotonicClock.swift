import Glibc

/// A moment on CLOCK_MONOTONIC: the one clock foldcam measures time with. Deadlines, grace
/// periods, log budgets and frame timestamps are all instants of it, and the protocol carries
/// its `nanoseconds` (snapshot `at` and `timestamp`; clients read the same clock, e.g.
/// Python's time.monotonic_ns()). Swift's ContinuousClock is CLOCK_BOOTTIME on Linux, which
/// drifts from it across a suspend, so foldcam does not use it.
public struct MonotonicInstant: InstantProtocol, Sendable {
    public typealias Duration = Swift.Duration
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    public func advanced(by duration: Duration) -> MonotonicInstant {
        let delta = Self.nanoseconds(duration)
        return MonotonicInstant(nanoseconds: delta < 0 ? nanoseconds - min(nanoseconds, UInt64(-delta)) : nanoseconds &+ UInt64(delta))
    }

    public func duration(to other: MonotonicInstant) -> Duration {
        other.nanoseconds >= nanoseconds
            ? .nanoseconds(Int64(clamping: other.nanoseconds - nanoseconds))
            : .nanoseconds(-Int64(clamping: nanoseconds - other.nanoseconds))
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant { lhs.advanced(by: rhs) }
    public static func - (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant { lhs.advanced(by: .zero - rhs) }
    public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration { rhs.duration(to: lhs) }

    /// Whole nanoseconds of `duration`, saturating at Int64's range.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).overflow ? (seconds < 0 ? .min : .max) : scaled + attoseconds / 1_000_000_000
    }
}

/// Reads CLOCK_MONOTONIC. An instance stands where a clock is passed around (`clock.now`).
public struct MonotonicClock: Sendable {
    public init() {}

    public var now: MonotonicInstant { Self.now }

    public static var now: MonotonicInstant { MonotonicInstant(nanoseconds: nanoseconds) }

    /// `now` in nanoseconds, as frames and the protocol carry it.
    public static var nanoseconds: UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// CLOCK_REALTIME in seconds: calendar time, never for intervals; only for the few values people
/// compare with a calendar (the daemon's start time in its metrics).
public enum WallClock {
    public static var seconds: Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
