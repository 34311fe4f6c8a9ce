/// A non-negative integer of any size: counts of posture cells, which are products of up to
/// one factor per hinge and overflow 64 bits long before a rig reaches its limits. Only what the
/// coverage check needs: multiply by a small factor, add, subtract, compare.
struct CellCount: Equatable, Comparable {
    /// Base 2^32, least significant first, no leading zero limbs (zero is []).
    private var limbs: [UInt32]

    init(_ value: UInt32) {
        limbs = value == 0 ? [] : [value]
    }

    static let one = CellCount(1)

    func multiplied(by factor: UInt32) -> CellCount {
        guard factor != 0 else { return CellCount(0) }
        var result = self
        var carry: UInt64 = 0
        for index in result.limbs.indices {
            let product = UInt64(result.limbs[index]) * UInt64(factor) + carry
            result.limbs[index] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry != 0 { result.limbs.append(UInt32(carry)) }
        return result
    }

    static func += (lhs: inout CellCount, rhs: CellCount) {
        var carry: UInt64 = 0
        for index in 0..<max(lhs.limbs.count, rhs.limbs.count) {
            let sum = UInt64(lhs.limb(index)) + UInt64(rhs.limb(index)) + carry
            if index < lhs.limbs.count { lhs.limbs[index] = UInt32(truncatingIfNeeded: sum) } else { lhs.limbs.append(UInt32(truncatingIfNeeded: sum)) }
            carry = sum >> 32
        }
        if carry != 0 { lhs.limbs.append(UInt32(carry)) }
    }

    /// Requires lhs >= rhs.
    static func -= (lhs: inout CellCount, rhs: CellCount) {
        precondition(lhs >= rhs, "CellCount would go negative")
        var borrow: Int64 = 0
        for index in lhs.limbs.indices {
            var difference = Int64(lhs.limbs[index]) - Int64(rhs.limb(index)) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 1 << 32 }
            lhs.limbs[index] = UInt32(difference)
        }
        while lhs.limbs.last == 0 { lhs.limbs.removeLast() }
    }

    static func < (lhs: CellCount, rhs: CellCount) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        for index in lhs.limbs.indices.reversed() where lhs.limbs[index] != rhs.limbs[index] {
            return lhs.limbs[index] < rhs.limbs[index]
        }
        return false
    }

    private func limb(_ index: Int) -> UInt32 { index < limbs.count ? limbs[index] : 0 }
}
