import FoldcamIO
import Glibc

/// Monotonic nanoseconds from `clock_gettime(CLOCK_MONOTONIC)` (a vDSO call, no system call).
@inline(__always)
func nowNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// Keeps a result alive so the optimizer cannot drop the work that produced it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// Per-call samples (nanoseconds) and their summary.
struct Stats {
    var count: Int
    var median: Double
    var p99: Double
    var mean: Double
    var minimum: Double
    var maximum: Double

    /// Nearest-rank percentiles over the samples (which it sorts in place).
    init(_ samples: inout [UInt64]) {
        precondition(!samples.isEmpty, "no samples")
        samples.sort()
        count = samples.count
        func rank(_ fraction: Double) -> Double {
            let index = Int((fraction * Double(samples.count)).rounded(.up)) - 1
            return Double(samples[min(max(index, 0), samples.count - 1)])
        }
        median = rank(0.5)
        p99 = rank(0.99)
        var total = 0.0
        for sample in samples { total += Double(sample) }
        mean = total / Double(samples.count)
        minimum = Double(samples[0])
        maximum = Double(samples[samples.count - 1])
    }
}

/// Times `body` once per call: `warmUp` untimed calls, then `iterations` timed ones. Each sample
/// includes one clock reading's cost (reported separately as the timer overhead).
func measure(iterations: Int, warmUp: Int, label: String, _ body: () -> Void) -> Stats {
    Progress.note("\(label): \(warmUp) warm-up + \(iterations) timed calls")
    for _ in 0..<warmUp { body() }
    var samples = [UInt64](repeating: 0, count: iterations)
    for index in 0..<iterations {
        let start = nowNanoseconds()
        body()
        samples[index] = nowNanoseconds() &- start
        if index > 0 && index % Progress.every == 0 { Progress.note("\(label): \(index) calls") }
    }
    return Stats(&samples)
}

/// The cost of one back-to-back pair of clock readings (median), i.e. what each sample carries
/// on top of the work measured.
func timerOverhead(iterations: Int) -> Stats {
    var samples = [UInt64](repeating: 0, count: max(1000, iterations / 10))
    for index in samples.indices {
        let start = nowNanoseconds()
        samples[index] = nowNanoseconds() &- start
    }
    return Stats(&samples)
}

/// Progress lines for long loops, on stderr so stdout stays a clean report.
enum Progress {
    static let every = 250_000

    static func note(_ text: String) {
        StandardError.write("[foldcam-bench] \(text)\n")
    }
}

