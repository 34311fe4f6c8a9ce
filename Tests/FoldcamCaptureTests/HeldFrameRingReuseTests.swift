@testable import FoldcamCapture
import FoldcamVideo
import Testing

/// The ring's copies reuse their slot's storage (issue 29): a copy into a reused slot must not
/// allocate a fresh frame, which at 720p is a 1.8 MB mapping faulted in and zeroed per copy.
@Suite struct HeldFrameRingReuseTests {
    static func frame(_ value: UInt8) -> [UInt8] {
        [UInt8](repeating: value, count: FakeBuffers.byteCount)
    }

    @Test func aCopyIntoAReusedSlotWritesInPlace() {
        var ring = HeldFrameRingTests.ring()
        let capacity = ring.capacity
        for value in 0..<capacity {
            let released = Self.frame(UInt8(value)).withUnsafeBytes { ring.append(copying: $0, timestamp: UInt64(value) * 1_000_000, source: "a") }
            #expect(released.isEmpty)
        }
        let first = (0..<capacity).map { ring.ownedStorageAddress(slot: $0) }
        #expect(first.allSatisfy { $0 != nil })
        for value in capacity..<(3 * capacity) {
            _ = Self.frame(UInt8(value)).withUnsafeBytes { ring.append(copying: $0, timestamp: UInt64(value) * 1_000_000, source: "a") }
        }
        let later = (0..<capacity).map { ring.ownedStorageAddress(slot: $0) }
        #expect(later == first)
        // And the bytes are the newest frame's.
        let newest = ring.nearest(to: UInt64(3 * capacity - 1) * 1_000_000)
        #expect(newest?.bytes == Self.frame(UInt8(3 * capacity - 1)))
    }

    @Test func aSnapshotStillHoldingASlotsBytesKeepsThemWhenTheSlotIsReused() {
        var ring = HeldFrameRingTests.ring()
        let capacity = ring.capacity
        for value in 0..<capacity {
            _ = Self.frame(UInt8(value)).withUnsafeBytes { ring.append(copying: $0, timestamp: UInt64(value) * 1_000_000, source: "a") }
        }
        // The snapshot of the oldest frame shares its slot's storage until the slot is written.
        let snapshot = ring.nearest(to: 0)
        _ = Self.frame(200).withUnsafeBytes { ring.append(copying: $0, timestamp: UInt64(capacity) * 1_000_000, source: "a") }
        #expect(snapshot?.bytes == Self.frame(0))
        #expect(ring.nearest(to: UInt64(capacity) * 1_000_000)?.bytes == Self.frame(200))
    }

    @Test func aHeldEntryEvictedByACopyIsLetGo() {
        var ring = HeldFrameRingTests.ring()
        let buffers = FakeBuffers(count: 1)
        let capacity = ring.capacity
        #expect(ring.append(held: buffers[0], timestamp: 0, source: "a").isEmpty)
        for value in 1..<capacity {
            _ = Self.frame(UInt8(value)).withUnsafeBytes { ring.append(copying: $0, timestamp: UInt64(value) * 1_000_000, source: "a") }
        }
        let released = Self.frame(9).withUnsafeBytes { ring.append(copying: $0, timestamp: UInt64(capacity) * 1_000_000, source: "a") }
        #expect(HeldFrameRingTests.indices(released) == [0])
    }
}
