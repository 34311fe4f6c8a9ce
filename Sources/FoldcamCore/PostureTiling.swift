/// Exact checks that the postures tile hinge space: no two share a hinge setting, and together
/// they leave none out. No grid: every hinge's range is cut at the posture boundaries written on
/// it into cells, a posture covers a box of whole cells, and two integer counts of cells
/// decide coverage. Time grows with postures × hinges (plus overlapping pairs found), never
/// with the size of hinge space.
struct PostureTiling {
    /// Per hinge: its distinct boundaries, minimum first and maximum last. Cell j of hinge h
    /// is [boundaries[h][j], boundaries[h][j + 1]), the last one including the maximum.
    let boundaries: [[Double]]
    /// Per posture, per hinge: the cells it covers, start ..< end, at posture × hinges + hinge
    /// (flat, so the pair loop touches no nested array).
    let starts: [Int]
    let ends: [Int]
    let postureCount: Int
    let hingeCount: Int

    init(_ rig: Rig) {
        var boundaries = rig.hinges.map { [$0.minimum, $0.maximum] }
        for posture in rig.postures {
            for range in posture.ranges {
                boundaries[range.hinge] += [range.lower, range.upper]
            }
        }
        boundaries = boundaries.map { Array(Set($0)).sorted() }
        var starts: [Int] = []
        var ends: [Int] = []
        let lastCells = boundaries.map { $0.count - 1 }
        for posture in rig.postures {
            var start = [Int](repeating: 0, count: rig.hinges.count)
            var end = lastCells
            for range in posture.ranges {
                start[range.hinge] = Self.position(of: range.lower, in: boundaries[range.hinge])
                end[range.hinge] = Self.position(of: range.upper, in: boundaries[range.hinge])
            }
            starts += start
            ends += end
        }
        self.boundaries = boundaries
        self.starts = starts
        self.ends = ends
        postureCount = rig.postures.count
        hingeCount = rig.hinges.count
    }

    private func start(_ posture: Int, _ hinge: Int) -> Int { starts[posture * hingeCount + hinge] }
    private func end(_ posture: Int, _ hinge: Int) -> Int { ends[posture * hingeCount + hinge] }

    private static func position(of value: Double, in sorted: [Double]) -> Int {
        var low = 0
        var high = sorted.count - 1
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }


    private func overlap(_ a: Int, _ b: Int) -> Bool {
        var hinge = 0
        while hinge < hingeCount {
            if start(a, hinge) >= end(b, hinge) || start(b, hinge) >= end(a, hinge) { return false }
            hinge += 1
        }
        return true
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
        let postures = postureCount
        guard hingeCount > 0 else {
            // Without hinges every posture is the whole (single-point) space.
            for first in 0..<postures { for second in first + 1..<postures { found(first, second) } }
            return (kept, count)
        }
        let order = (0..<postures).sorted { (start($0, 0), $0) < (start($1, 0), $1) }
        var active: [Int] = []
        for posture in order {
            active.removeAll { end($0, 0) <= start(posture, 0) }
            for other in active where overlap(posture, other) { found(posture, other) }
            active.append(posture)
        }
        return (kept, count)
    }

    /// Per posture, for each hinge h (and one past the last): the cells of hinges h… it covers.
    private func suffixCells(of posture: Int) -> [CellCount] {
        var counts = [CellCount](repeating: .one, count: hingeCount + 1)
        for h in stride(from: hingeCount - 1, through: 0, by: -1) {
            counts[h] = counts[h + 1].multiplied(by: UInt32(end(posture, h) - start(posture, h)))
        }
        return counts
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
        var active = Array(0..<postureCount)
        let cells = active.map(suffixCells)
        var total = CellCount(0)
        for posture in active { total += cells[posture][0] }
        guard total < allCells(from: 0) else { return nil }
        var setting: [Double] = []
        for hinge in 0..<hingeCount {
            // Sweep this hinge's cells, keeping the count of the postures that cover each one.
            let needed = allCells(from: hinge + 1)
            let sub = active.map { cells[$0][hinge + 1] }
            let byStart = active.indices.sorted { start(active[$0], hinge) < start(active[$1], hinge) }
            let byEnd = active.indices.sorted { end(active[$0], hinge) < end(active[$1], hinge) }
            var sum = CellCount(0)
            var nextStart = 0
            var nextEnd = 0
            var gapCell: Int?
            for cell in 0..<(boundaries[hinge].count - 1) {
                while nextEnd < byEnd.count, end(active[byEnd[nextEnd]], hinge) <= cell {
                    sum -= sub[byEnd[nextEnd]]
                    nextEnd += 1
                }
                while nextStart < byStart.count, start(active[byStart[nextStart]], hinge) <= cell {
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
            active = active.filter { start($0, hinge) <= cell && cell < end($0, hinge) }
        }
        return setting
    }
}
