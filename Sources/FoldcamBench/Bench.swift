import FoldcamCore
import Glibc

/// Runs every measurement once, in a fixed order, and collects the figures.
enum Bench {
    /// The target for one full recompute on the large rig.
    static let targetNanoseconds = 20_000.0

    static func run(_ options: Options) throws(BenchError) -> Report {
        Progress.note("building the rigs (the large one is generated, then decoded and validated)")
        let subjects = [try Subject.duo(), try Subject.large()]
        let iterations = options.iterations
        let warmUp = options.warmUp

        let timer = timerOverhead(iterations: iterations)
        let figures = subjects.map { subject in
            Figures(
                subject: subject,
                recompute: Workloads.recompute(subject, iterations: iterations, warmUp: warmUp),
                apply: Workloads.applyHingeAngle(subject, iterations: iterations, warmUp: warmUp),
                floor: Workloads.geometryFloor(subject, iterations: iterations, warmUp: warmUp),
                publish: Workloads.publish(subject, iterations: options.publishIterations, warmUp: options.publishWarmUp))
        }

        var heap: HeapOutcome = .skipped
        if options.heapIterations > 0 {
            if let meter = HeapMeter() {
                let large = subjects[subjects.count - 1]
                heap = .measured(Workloads.recomputeHeap(large, meter: meter, iterations: options.heapIterations, warmUp: warmUp))
            } else {
                heap = .unavailable("glibc mallinfo2 is not reachable on this platform (needs glibc >= 2.33 on x86-64)")
            }
        }
        Progress.note("done")
        return Report(
            cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), loadAverage: loadAverage(),
            iterations: iterations, warmUp: warmUp, publishIterations: options.publishIterations, timer: timer, figures: figures, heap: heap)
    }

    private static func loadAverage() -> [Double] {
        var values = [0.0, 0.0, 0.0]
        let count = values.withUnsafeMutableBufferPointer { getloadavg($0.baseAddress!, 3) }
        return count == 3 ? values : []
    }
}

/// One rig's figures.
struct Figures {
    var subject: Subject
    var recompute: Stats
    var apply: Stats
    var floor: Stats
    var publish: Stats
}

enum HeapOutcome {
    case skipped
    case unavailable(String)
    case measured(HeapResult)
}
