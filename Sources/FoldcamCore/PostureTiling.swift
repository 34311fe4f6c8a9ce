/// Exact checks that the postures tile hinge space: no two share a hinge setting, and together
/// they leave none out. No grid: every hinge's range is cut at the posture boundaries written on
/// it into cells, a posture covers a box of whole cells, and two integer counts of cells
/// decide coverage. Time grows with postures × hinges (plus overlapping pairs found), never
/// with the size of hinge space.
struct PostureTiling {
    /// Per hinge: its distinct boundaries, minimum first and maximum last. Cell j of hinge h
    /// is [boundaries[h][j], boundaries[h][j + 1]), the last one including the maximum.
    let boundaries: [[Double]]
    /// Per posture, per hinge: the cells it covers, start ..< end.
    let starts: [[Int]]
    let ends: [[Int]]

    init(_ rig: Rig) {
        var boundaries = rig.hinges.map { [$0.minimum, $0.maximum] }
        for posture in rig.postures {
            for range in posture.ranges {
                boundaries[range.hinge] += [range.lower, range.upper]
            }
        }
        boundaries = boundaries.map { Array(Set($0)).sorted() }
        var starts: [[Int]] = []
        var ends: [[Int]] = []
        for posture in rig.postures {
            var start = [Int](repeating: 0, count: rig.hinges.count)
            var end = boundaries.map { $0.count - 1 }
            for range in posture.ranges {
                start[range.hinge] = Self.position(of: range.lower, in: boundaries[range.hinge])
                end[range.hinge] = Self.position(of: range.upper, in: boundaries[range.hinge])
            }
            starts.append(start)
            ends.append(end)
        }
        self.boundaries = boundaries
        self.starts = starts
        self.ends = ends
    }

    private static func position(of value: Double, in sorted: [Double]) -> Int {
        var low = 0
        var high = sorted.count - 1
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private var hingeCount: Int { boundaries.count }

    private func overlap(_ a: Int, _ b: Int) -> Bool {
        (0..<hingeCount).allSatisfy { starts[a][$0] < ends[b][$0] && starts[b][$0] < ends[a][$0] }
    }

    /// How many pairs of postures overlap, and the first `limit` of them in index order (lower
    /// index first). A sweep along the first hinge compares only postures whose ranges there
    /// meet; only `limit` pairs are ever kept, however many overlap.
    func overlaps(keeping limit: Int) -> (first: [(Int, Int)], count: Int) {
        var kept: [(Int, Int)] = []
        var count = 0
        func found(_ a: Int, _ b: Int) {
            count += 1
            let pair = (min(a, b), max(a, b))
            if kept.count == limit, let last = kept.last, !(pair < last) { return }
            let position = kept.firstIndex { pair < $0 } ?? kept.count
            kept.insert(pair, at: position)
            if kept.count > limit { kept.removeLast() }
        }
        let postures = starts.count
        guard hingeCount > 0 else {
            // Without hinges every posture is the whole (single-point) space.
            for first in 0..<postures { for second in first + 1..<postures { found(first, second) } }
            return (kept, count)
        }
        let order = (0..<postures).sorted { (starts[$0][0], $0) < (starts[$1][0], $1) }
        var active: [Int] = []
        for posture in order {
            active.removeAll { ends[$0][0] <= starts[posture][0] }
            for other in active where overlap(posture, other) { found(posture, other) }
            active.append(posture)
        }
        return (kept, count)
    }

    /// Cells of the hinges from `hinge` on covered by one posture.
    private func cells(of posture: Int, from hinge: Int) -> CellCount {
        var count = CellCount.one
        for h in hinge..<hingeCount { count = count.multiplied(by: UInt32(ends[posture][h] - starts[posture][h])) }
        return count
    }

    private func allCells(from hinge: Int) -> CellCount {
        var count = CellCount.one
        for h in hinge..<hingeCount { count = count.multiplied(by: UInt32(boundaries[h].count - 1)) }
        return count
    }

    /// For postures that do not overlap: a hinge setting none of them covers, or nil when they
    /// cover everything. Disjoint boxes cover the space exactly when their cell counts add up
    /// to the space's; otherwise the search descends, hinge by hinge, into a slab whose count
    /// falls short, so it visits one slab per hinge.
    func uncoveredSetting() -> [Double]? {
        var active = Array(starts.indices)
        var total = CellCount(0)
        for posture in active { total += cells(of: posture, from: 0) }
        guard total < allCells(from: 0) else { return nil }
        var setting: [Double] = []
        for hinge in 0..<hingeCount {
            // Sweep this hinge's cells, keeping the count of the postures that cover each one.
            let needed = allCells(from: hinge + 1)
            let sub = active.map { cells(of: $0, from: hinge + 1) }
            let byStart = active.indices.sorted { starts[active[$0]][hinge] < starts[active[$1]][hinge] }
            let byEnd = active.indices.sorted { ends[active[$0]][hinge] < ends[active[$1]][hinge] }
            var sum = CellCount(0)
            var nextStart = 0
            var nextEnd = 0
            var gapCell: Int?
            for cell in 0..<(boundaries[hinge].count - 1) {
                while nextEnd < byEnd.count, ends[active[byEnd[nextEnd]]][hinge] <= cell {
                    sum -= sub[byEnd[nextEnd]]
                    nextEnd += 1
                }
                while nextStart < byStart.count, starts[active[byStart[nextStart]]][hinge] <= cell {
                    sum += sub[byStart[nextStart]]
                    nextStart += 1
                }
                if sum < needed {
                    gapCell = cell
                    break
                }
            }
            // A shortfall overall means one in some cell (the counts are exact).
            guard let cell = gapCell else { preconditionFailure("posture cell counts are inconsistent") }
            setting.append(boundaries[hinge][cell])
            active = active.filter { starts[$0][hinge] <= cell && cell < ends[$0][hinge] }
        }
        return setting
    }
}
