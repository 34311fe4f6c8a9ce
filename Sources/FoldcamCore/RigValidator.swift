/// Checks that need the whole rig: posture ranges against hinges, overlaps, gaps, and the
/// sensors' and switches' hinges.
enum RigValidator {
    static func validate(_ rig: Rig, collector: ErrorCollector) {
        validatePostureRanges(rig, collector)
        guard collector.errors.isEmpty else { return }
        validatePostureTiling(rig, collector)
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

    /// Overlapping pairs reported one by one, up to this many; the rest are counted.
    static let maximumOverlapsReported = 20

    /// Two postures overlap when, on every hinge, their ranges share an angle. Gaps are looked
    /// for only among postures that do not overlap (the exact count needs disjoint postures).
    private static func validatePostureTiling(_ rig: Rig, _ collector: ErrorCollector) {
        let tiling = PostureTiling(rig)
        let (pairs, count) = tiling.overlaps(keeping: maximumOverlapsReported)
        for (first, second) in pairs {
            collector.add("postures[\(second)].ranges",
                "posture \"\(rig.postures[second].id)\" overlaps posture \"\(rig.postures[first].id)\" (ranges are [from, to): 'to' is excluded unless it is the hinge's maximum)")
        }
        if count > pairs.count {
            collector.add("postures", "… and \(count - pairs.count) more overlapping pairs of postures")
        }
        guard count == 0 else { return }
        if let uncovered = tiling.uncoveredSetting() {
            let angles = zip(rig.hinges, uncovered).map { "\($0.id)=\(numberText($1))" }.joined(separator: ", ")
            collector.add("postures", "no posture covers \(angles) (postures must cover every hinge angle)")
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
