import FoldcamCore

/// The figures of one run, as a table for people or JSON for scripts.
struct Report {
    var cpus: Int
    var loadAverage: [Double]
    var iterations: Int
    var warmUp: Int
    var publishIterations: Int
    var timer: Stats
    var figures: [Figures]
    var heap: HeapOutcome

    static let baselineName = "geometry floor"
    static let baselineDescription = """
        the same pose and vectors a recompute needs with none of its decisions and no state \
        built: RigPose (one rotation product per hinge), each camera's image basis, each \
        display's viewing normal, and theta = acos(a.n) for every (display, camera) pair
        """

    var large: Figures { figures[figures.count - 1] }

    // MARK: Verdicts (reported, never asserted)

    var medianMeetsTarget: Bool { large.recompute.median < Bench.targetNanoseconds }
    var p99MeetsTarget: Bool { large.recompute.p99 < Bench.targetNanoseconds }
    /// No growth: the heap in use after the run is not above what it was before.
    var heapVerdict: Bool? {
        guard case let .measured(result) = heap else { return nil }
        return result.growth <= 0
    }

    // MARK: Table

    func table() -> String {
        var lines: [String] = []
        lines.append("foldcam-bench: decision core (FoldcamCore.FoldEngine)")
        let load = loadAverage.isEmpty ? "unknown" : loadAverage.map { fixed($0, 2) }.joined(separator: " ")
        lines.append("  machine    \(cpus) CPUs online, load average \(load) when the run ended (this run adds about 1)")
        lines.append("  timer      clock_gettime(CLOCK_MONOTONIC) around every call; one reading costs \(fixed(timer.median, 0)) ns (median), included in every figure")
        lines.append("  runs       \(iterations) timed calls per figure, after \(warmUp) untimed warm-up calls (publish reference: \(publishIterations) calls)")
        for figure in figures {
            let pose = zip(figure.subject.rig.hinges, figure.subject.angles).map { "\($0.id)=\(fixed($1, 0))" }.joined(separator: " ")
            lines.append("  rig        \(pad(figure.subject.name, 6)) \(figure.subject.shape), \(figure.subject.pairs) (display, camera) pairs")
            lines.append("             \(pad("", 6)) measured at \(pose), gravity set: nothing covered")
        }
        lines.append("")

        let header = "  " + pad("per call", 46) + pad("rig", 7) + lpad("median", 11) + lpad("p99", 11) + lpad("mean", 11)
        lines.append(header)
        func row(_ title: String, _ figure: Figures, _ stats: Stats) {
            lines.append("  " + pad(title, 46) + pad(figure.subject.name, 7) + lpad(micro(stats.median), 11) + lpad(micro(stats.p99), 11) + lpad(micro(stats.mean), 11))
        }
        for figure in figures { row("recompute()", figure, figure.recompute) }
        for figure in figures { row("apply(.hingeAngle) sweeping the first hinge", figure, figure.apply) }
        for figure in figures { row("baseline: \(Self.baselineName)", figure, figure.floor) }
        for figure in figures { row("reference: publish state (compact JSON)", figure, figure.publish) }
        lines.append("")

        lines.append("  baseline   \(Self.baselineName): \(Self.baselineDescription)")
        lines.append("")
        lines.append("  " + pad("ratios, same run", 46) + figures.map { lpad($0.subject.name, 11) }.joined())
        func ratioRow(_ title: String, _ value: (Figures) -> Double) {
            lines.append("  " + pad(title, 46) + figures.map { lpad(fixed(value($0), 2) + "x", 11) }.joined())
        }
        ratioRow("recompute / baseline, median", { $0.recompute.median / $0.floor.median })
        ratioRow("recompute / baseline, p99", { $0.recompute.p99 / $0.floor.p99 })
        ratioRow("apply(.hingeAngle) / baseline, median", { $0.apply.median / $0.floor.median })
        ratioRow("recompute / publish, median", { $0.recompute.median / $0.publish.median })
        lines.append("")

        lines.append("  targets (large rig; figures are reported, not asserted)")
        lines.append("    full recompute, median < 20 µs     " + lpad(micro(large.recompute.median), 10) + "   " + verdict(medianMeetsTarget))
        lines.append("    full recompute, p99    < 20 µs     " + lpad(micro(large.recompute.p99), 10) + "   " + verdict(p99MeetsTarget))
        switch heap {
        case .skipped:
            lines.append("    heap growth: skipped (--heap-iterations 0)")
        case let .unavailable(reason):
            lines.append("    heap growth: not measured: \(reason)")
        case let .measured(result):
            let note = result.iterations == 1_000_000 ? "" : " (target is stated over 1000000)"
            lines.append("    no heap growth over \(result.iterations) recomputes\(note): heap in use before \(result.before) B, after \(result.after) B, growth \(signed(result.growth)) B   " + verdict(heapVerdict ?? false))
            if result.checkpoints.count > 1 {
                let trail = result.checkpoints.map { "\($0.iterations): \(signed($0.bytes - result.before))" }.joined(separator: ", ")
                lines.append("      growth after n recomputes: \(trail)")
            }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: JSON

    func json() -> JSONValue {
        func stats(_ stats: Stats) -> JSONValue {
            .object([
                ("medianNs", .double(stats.median)), ("p99Ns", .double(stats.p99)), ("meanNs", .double(rounded(stats.mean))),
                ("minNs", .double(stats.minimum)), ("maxNs", .double(stats.maximum)), ("samples", .int(stats.count)),
            ])
        }
        let rigs: [(String, JSONValue)] = figures.map { figure in
            let rig = figure.subject.rig
            return (figure.subject.name, .object([
                ("panels", .int(rig.panels.count)), ("hinges", .int(rig.hinges.count)),
                ("cameras", .int(rig.cameras.count)), ("displays", .int(rig.displays.count)),
                ("pairs", .int(figure.subject.pairs)),
                ("angles", .array(figure.subject.angles.map { .double($0) })),
                ("recompute", stats(figure.recompute)),
                ("applyHingeAngle", stats(figure.apply)),
                ("baselineGeometryFloor", stats(figure.floor)),
                ("publishCompactJSON", stats(figure.publish)),
                ("ratios", .object([
                    ("recomputeOverBaselineMedian", .double(rounded(figure.recompute.median / figure.floor.median))),
                    ("recomputeOverBaselineP99", .double(rounded(figure.recompute.p99 / figure.floor.p99))),
                    ("applyOverBaselineMedian", .double(rounded(figure.apply.median / figure.floor.median))),
                    ("recomputeOverPublishMedian", .double(rounded(figure.recompute.median / figure.publish.median))),
                ])),
            ]))
        }
        let heapValue: JSONValue
        switch heap {
        case .skipped: heapValue = .null
        case let .unavailable(reason): heapValue = .object([("unavailable", .string(reason))])
        case let .measured(result):
            heapValue = .object([
                ("rig", .string(large.subject.name)),
                ("iterations", .int(result.iterations)),
                ("beforeBytes", .int(result.before)),
                ("afterBytes", .int(result.after)),
                ("growthBytes", .int(result.growth)),
                ("checkpoints", .array(result.checkpoints.map {
                    .object([("iterations", .int($0.iterations)), ("bytes", .int($0.bytes))])
                })),
            ])
        }
        return .object([
            ("machine", .object([
                ("cpus", .int(cpus)),
                ("loadAverage", .array(loadAverage.map { .double(rounded($0)) })),
            ])),
            ("timerOverheadNs", .double(timer.median)),
            ("iterations", .int(iterations)),
            ("warmUp", .int(warmUp)),
            ("publishIterations", .int(publishIterations)),
            ("baseline", .string("\(Self.baselineName): \(Self.baselineDescription)")),
            ("rigs", .object(rigs)),
            ("heap", heapValue),
            ("targets", .object([
                ("rig", .string(large.subject.name)),
                ("recomputeNs", .double(Bench.targetNanoseconds)),
                ("recomputeMedianMet", .bool(medianMeetsTarget)),
                ("recomputeP99Met", .bool(p99MeetsTarget)),
                ("noHeapGrowth", heapVerdict.map { .bool($0) } ?? .null),
            ])),
        ])
    }
}

// MARK: Formatting (no Foundation)

func verdict(_ pass: Bool) -> String { pass ? "PASS" : "FAIL" }

func micro(_ nanoseconds: Double) -> String { fixed(nanoseconds / 1000, 2) + " µs" }

func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

/// `value` with exactly `places` decimals.
func fixed(_ value: Double, _ places: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((abs(value) * scale).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    let whole = scaled / Int(scale)
    guard places > 0 else { return sign + String(whole) }
    let fraction = String(scaled % Int(scale))
    return sign + String(whole) + "." + String(repeating: "0", count: places - fraction.count) + fraction
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func lpad(_ text: String, _ width: Int) -> String {
    text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
}
