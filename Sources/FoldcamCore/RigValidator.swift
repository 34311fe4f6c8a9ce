/// Checks that need the whole rig: posture ranges against hinges, overlaps, gaps, and the
/// sensors' and switches' hinges.
enum RigValidator {
    static func validate(_ rig: Rig, collector: ErrorCollector) {
        validatePostureRanges(rig, collector)
        guard collector.errors.isEmpty else { return }
        validatePostureOverlaps(rig, collector)
        validatePostureCoverage(rig, collector)
        validateSwitches(rig, collector)
        validateAccelerometers(rig, collector)
    }

    private static func validatePostureRanges(_ rig: Rig, _ collector: ErrorCollector) {
        for (index, posture) in rig.postures.enumerated() {
            for range in posture.ranges {
                let hinge = rig.hinges[range.hinge]
                if range.lower < hinge.minimum || range.upper > hinge.maximum {
                    collector.add("postures[\(index)].ranges.\(hinge.id)",
                        "[\(numberText(range.lower)), \(numberText(range.upper))] leaves the hinge range [\(numberText(hinge.minimum)), \(numberText(hinge.maximum))]")
                }
            }
        }
    }

    /// Two postures overlap when, on every hinge, their ranges share an angle.
    private static func validatePostureOverlaps(_ rig: Rig, _ collector: ErrorCollector) {
        for first in rig.postures.indices {
            for second in rig.postures.indices where second > first {
                let overlaps = rig.hinges.indices.allSatisfy { hinge in
                    let a = interval(rig.postures[first], hinge: hinge, rig)
                    let b = interval(rig.postures[second], hinge: hinge, rig)
                    let lower = max(a.lower, b.lower)
                    let upper = min(a.upper, b.upper)
                    let bothReachMaximum = a.upper == rig.hinges[hinge].maximum && b.upper == rig.hinges[hinge].maximum
                    return lower < upper || (bothReachMaximum && lower == upper)
                }
                if overlaps {
                    collector.add("postures[\(second)].ranges",
                        "posture \"\(rig.postures[second].id)\" overlaps posture \"\(rig.postures[first].id)\" (ranges are [from, to): 'to' is excluded unless it is the hinge's maximum)")
                }
            }
        }
    }

    private static func interval(_ posture: Posture, hinge: Int, _ rig: Rig) -> (lower: Double, upper: Double) {
        if let range = posture.ranges.first(where: { $0.hinge == hinge }) { return (range.lower, range.upper) }
        return (rig.hinges[hinge].minimum, rig.hinges[hinge].maximum)
    }

    /// Every reachable hinge setting must belong to some posture (sampled every degree, or
    /// coarser for rigs with many hinges so loading stays fast).
    private static func validatePostureCoverage(_ rig: Rig, _ collector: ErrorCollector) {
        var uncovered: [Double]?
        HingeGrid.forEach(rig, maximumSamples: 40_000) { angles in
            guard uncovered == nil else { return }
            if PostureResolver.strictMatch(rig, angles: angles) == nil { uncovered = angles }
        }
        if let uncovered {
            let where_ = zip(rig.hinges, uncovered).map { "\($0.id)=\(numberText($1))" }.joined(separator: ", ")
            collector.add("postures", "no posture covers \(where_) (postures must cover every hinge angle)")
        }
    }

    private static func validateSwitches(_ rig: Rig, _ collector: ErrorCollector) {
        for (key, mapping) in [("lid", rig.switches.lid), ("tabletMode", rig.switches.tabletMode)] {
            guard let mapping else { continue }
            let hinge = rig.hinges[mapping.hinge]
            if !hinge.contains(mapping.angle) {
                collector.add("switches.\(key).angle", "\(numberText(mapping.angle)) is outside hinge \"\(hinge.id)\" range [\(numberText(hinge.minimum)), \(numberText(hinge.maximum))]")
            }
        }
    }

    private static func validateAccelerometers(_ rig: Rig, _ collector: ErrorCollector) {
        guard !rig.accelerometers.isEmpty else { return }
        if rig.accelerometers.count != 2 {
            collector.add("accelerometers", "expected exactly two accelerometers (on two panels joined by one hinge), found \(rig.accelerometers.count)")
            return
        }
        if AccelerometerPair(rig) == nil {
            collector.add("accelerometers", "the accelerometers' panels \"\(rig.panels[rig.accelerometers[0].panel].id)\" and \"\(rig.panels[rig.accelerometers[1].panel].id)\" must be joined directly by one hinge")
        }
    }
}

/// Walks every combination of hinge angles on a grid: every degree when the rig has few
/// hinges, coarser steps when a 1° grid would exceed `maximumSamples` combinations.
enum HingeGrid {
    static func forEach(_ rig: Rig, maximumSamples: Int, _ body: ([Double]) -> Void) {
        var angles = rig.hinges.map(\.minimum)
        var perHinge = Double(maximumSamples)
        if !rig.hinges.isEmpty {
            // The largest whole number of values per hinge whose n-th power fits the budget.
            var root = 1.0
            while pow(root + 1, rig.hinges.count) <= Double(maximumSamples) { root += 1 }
            perHinge = max(2, root)
        }
        func values(_ hinge: Hinge) -> [Double] {
            let span = hinge.maximum - hinge.minimum
            let step = max(1, span / (perHinge - 1))
            var list: [Double] = []
            var angle = hinge.minimum
            while angle < hinge.maximum {
                list.append(angle)
                angle += step
            }
            list.append(hinge.maximum)
            return list
        }
        let grids = rig.hinges.map(values)
        func recurse(_ level: Int) {
            if level == grids.count {
                body(angles)
                return
            }
            for value in grids[level] {
                angles[level] = value
                recurse(level + 1)
            }
        }
        recurse(0)
    }

    private static func pow(_ base: Double, _ exponent: Int) -> Double {
        (0..<exponent).reduce(1) { product, _ in product * base }
    }
}
