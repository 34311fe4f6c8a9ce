import FoldcamCore
import Testing

/// The virtual camera runs while watched: reader counts and snapshots in, start/stop out.
@Suite struct CameraDemandTests {
    let ms: UInt64 = 1_000_000

    @Test func aReaderStartsTheCameraAtOnceAndItStopsAfterTheGracePeriod() {
        var demand = CameraDemand(grace: 2000 * ms)
        #expect(!demand.running)
        #expect(demand.readers(1, at: 100 * ms) == .start)
        #expect(demand.running && demand.deadline == nil)
        #expect(demand.readers(0, at: 500 * ms) == nil, "the grace period keeps it running")
        #expect(demand.deadline == 2500 * ms)
        #expect(demand.advance(now: 2499 * ms) == nil)
        #expect(demand.advance(now: 2500 * ms) == .stop)
        #expect(!demand.running && demand.deadline == nil)
    }

    @Test func aReaderThatComesBackWithinTheGracePeriodKeepsTheCamera() {
        var demand = CameraDemand(grace: 2000 * ms)
        _ = demand.readers(1, at: 0)
        _ = demand.readers(0, at: 1000 * ms)
        #expect(demand.readers(1, at: 1500 * ms) == nil)
        #expect(demand.deadline == nil)
        #expect(demand.advance(now: 5000 * ms) == nil)
        #expect(demand.running)
        // Leaving again starts a new grace period from then.
        _ = demand.readers(0, at: 6000 * ms)
        #expect(demand.advance(now: 7999 * ms) == nil)
        #expect(demand.advance(now: 8000 * ms) == .stop)
    }

    @Test func theCameraRunsUntilTheLastOfSeveralReadersLeaves() {
        var demand = CameraDemand(grace: 0)
        #expect(demand.readers(2, at: 0) == .start)
        #expect(demand.readers(1, at: 10 * ms) == nil)
        #expect(demand.readers(0, at: 20 * ms) == .stop, "no grace: stops at once")
    }

    @Test func anOpenerCountsOnlyOnceItStayed() {
        // The fallback counts openers: a browser listing cameras opens each for milliseconds.
        var demand = CameraDemand(grace: 2000 * ms, settle: 150 * ms)
        #expect(demand.readers(1, at: 0) == nil)
        #expect(demand.deadline == 150 * ms)
        #expect(demand.readers(0, at: 5 * ms) == nil, "a brief open never starts the camera")
        #expect(!demand.running && demand.deadline == nil)
        #expect(demand.readers(1, at: 1000 * ms) == nil)
        #expect(demand.advance(now: 1149 * ms) == nil)
        #expect(demand.advance(now: 1150 * ms) == .start)
    }

    @Test func aSnapshotRunsTheCameraUntilItIsAnsweredThenStopsAtOnce() {
        var demand = CameraDemand(grace: 2000 * ms)
        #expect(demand.snapshotBegan(at: 0) == .start)
        #expect(demand.snapshotBegan(at: 1 * ms) == nil)
        #expect(demand.snapshotEnded(at: 50 * ms) == nil, "the second snapshot still waits")
        #expect(demand.snapshotEnded(at: 60 * ms) == .stop, "no reader: no grace period")
    }

    @Test func aSnapshotWhileWatchedChangesNothing() {
        var demand = CameraDemand(grace: 2000 * ms)
        _ = demand.readers(1, at: 0)
        #expect(demand.snapshotBegan(at: 10 * ms) == nil)
        #expect(demand.snapshotEnded(at: 20 * ms) == nil)
        #expect(demand.running)
        // A reader leaving during a snapshot: the snapshot holds the camera, then the grace.
        _ = demand.snapshotBegan(at: 30 * ms)
        #expect(demand.readers(0, at: 40 * ms) == nil)
        #expect(demand.snapshotEnded(at: 50 * ms) == nil)
        #expect(demand.deadline == 2040 * ms)
        #expect(demand.advance(now: 2040 * ms) == .stop)
    }

    @Test func readersPresentAtStartStartTheCameraOnTheFirstCount() {
        var demand = CameraDemand(grace: 2000 * ms)
        #expect(demand.readers(3, at: 0) == .start)
        #expect(demand.readers(-1, at: 1 * ms) == nil, "a negative count is none")
        #expect(demand.readers == 0)
    }
}
