@testable import FoldcamPlatform
import Testing

/// `MonotonicInstant`: CLOCK_MONOTONIC moments and their arithmetic with `Duration`.
@Suite struct MonotonicInstantTests {
    @Test func durationsAddAndSubtract() {
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        let later = start + .milliseconds(1500)
        #expect(later.nanoseconds == 6_500_000_000)
        #expect(later - start == .milliseconds(1500))
        #expect(start - later == .milliseconds(-1500))
        #expect(start.duration(to: later) == .milliseconds(1500))
        #expect(later - .seconds(2) == MonotonicInstant(nanoseconds: 4_500_000_000))
        #expect(start < later && !(later < start))
    }

    @Test func goingBackBeforeBootStopsAtZero() {
        let early = MonotonicInstant(nanoseconds: 10)
        #expect((early - .seconds(1)).nanoseconds == 0)
        #expect(MonotonicInstant.nanoseconds(.seconds(Int64.max)) == .max)
    }

    @Test func theClockNeverGoesBack() {
        let clock = MonotonicClock()
        var last = clock.now
        for _ in 0..<1000 {
            let now = clock.now
            #expect(now >= last)
            last = now
        }
        #expect(MonotonicClock.nanoseconds >= last.nanoseconds)
    }
}
