/// The hinge settings the virtual camera pool is computed from: never more than `budget`,
/// whatever the number of hinges (docs/model.md#the-virtual-front-camera says what this
/// guarantees).
/// 1. Sweeps: from the initial angles, each hinge alone over its whole range in 1° steps
///    (its maximum included), the others held at their initial angles.
/// 2. A grid over all hinges, with the same number of evenly spaced values on each (both ends
///    included, never closer than 1°): the most whose combinations fit the budget the sweeps
///    left, when that is at least two per hinge. With one hinge the sweep is that grid already.
enum HingeSamples {
    static let budget = 40_000

    /// Calls `body` with each setting until it returns false; returns how many were visited.
    @discardableResult
    static func forEach(_ rig: Rig, budget: Int = budget, _ body: ([Double]) -> Bool) -> Int {
        let hinges = rig.hinges
        let initial = hinges.map(\.initial)
        var visited = 0
        func visit(_ angles: [Double]) -> Bool {
            guard visited < budget else { return false }
            visited += 1
            return body(angles)
        }
        guard !hinges.isEmpty else {
            _ = visit([])
            return visited
        }
        for (index, hinge) in hinges.enumerated() {
            var angles = initial
            for value in values(hinge, count: Int(hinge.maximum - hinge.minimum) + 2) {
                angles[index] = value
                if !visit(angles) { return visited }
            }
        }
        guard hinges.count > 1 else { return visited }
        // The largest k with k^n within what the sweeps left.
        let left = budget - visited
        var perHinge = 1
        while power(perHinge + 1, hinges.count, atMost: left) { perHinge += 1 }
        guard perHinge >= 2 else { return visited }
        let grids = hinges.map { values($0, count: perHinge) }
        var digits = [Int](repeating: 0, count: hinges.count)
        var angles = grids.map { $0[0] }
        while true {
            if !visit(angles) { return visited }
            // Next combination, like an odometer.
            var position = hinges.count - 1
            while position >= 0 {
                digits[position] += 1
                if digits[position] < grids[position].count {
                    angles[position] = grids[position][digits[position]]
                    break
                }
                digits[position] = 0
                angles[position] = grids[position][0]
                position -= 1
            }
            if position < 0 { return visited }
        }
    }

    /// Up to `count` angles from the hinge's minimum to its maximum, evenly spaced but at
    /// least 1° apart, both ends included.
    static func values(_ hinge: Hinge, count: Int) -> [Double] {
        let span = hinge.maximum - hinge.minimum
        let step = max(1, span / Double(max(count - 1, 1)))
        var list: [Double] = []
        var angle = hinge.minimum
        while angle < hinge.maximum && list.count < count - 1 {
            list.append(angle)
            angle = hinge.minimum + Double(list.count) * step
        }
        list.append(hinge.maximum)
        return list
    }

    /// Whether base^exponent <= limit, without overflowing.
    private static func power(_ base: Int, _ exponent: Int, atMost limit: Int) -> Bool {
        var product = 1
        for _ in 0..<exponent {
            product *= base
            if product > limit { return false }
        }
        return true
    }
}
