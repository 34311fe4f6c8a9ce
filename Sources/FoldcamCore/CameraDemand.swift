/// Whether the virtual camera's source camera should run: while someone reads the loopback, while
/// a snapshot waits for a frame, and for a grace period after the last reader left (a reader that
/// closes and reopens, as many apps do when they change settings, keeps the camera). With no
/// reader the camera is off: no sensor power, no privacy LED (docs/virtual-camera.md, "Only
/// while watched"). Pure: the caller feeds reader counts and the clock, performs the changes and
/// calls `advance(now:)` at `deadline`.
public struct CameraDemand: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        case start, stop
    }

    /// How long the camera keeps running after the last reader left, nanoseconds.
    public var grace: UInt64
    /// How long a reader must stay before it counts, nanoseconds: 0 where the count is of
    /// streaming readers (v4l2loopback's client-usage event); the fallback counts openers, and a
    /// browser listing cameras opens each for a few milliseconds without streaming.
    public var settle: UInt64
    public private(set) var readers = 0
    /// Snapshots waiting for a frame while nobody reads.
    public private(set) var snapshots = 0
    public private(set) var running = false
    /// When `advance(now:)` must be called next; nil when nothing is pending.
    public private(set) var deadline: UInt64?
    private var readersSince: UInt64?
    private var lastLeft: UInt64?

    public init(grace: UInt64, settle: UInt64 = 0) {
        self.grace = grace
        self.settle = settle
    }

    /// The number of readers now.
    public mutating func readers(_ count: Int, at now: UInt64) -> Change? {
        let count = max(0, count)
        if readers == 0 && count > 0 { readersSince = now }
        if readers > 0 && count == 0 {
            readersSince = nil
            lastLeft = running ? now : nil
        }
        readers = count
        return evaluate(now: now)
    }

    /// A snapshot needs the camera (it runs until `snapshotEnded`).
    public mutating func snapshotBegan(at now: UInt64) -> Change? {
        snapshots += 1
        return evaluate(now: now)
    }

    /// A snapshot got its frame, or gave up. With no reader the camera stops at once: the grace
    /// period is for readers that come back.
    public mutating func snapshotEnded(at now: UInt64) -> Change? {
        snapshots = max(0, snapshots - 1)
        return evaluate(now: now)
    }

    /// The clock reached `deadline` (or any time: early calls change nothing).
    public mutating func advance(now: UInt64) -> Change? {
        evaluate(now: now)
    }

    private mutating func evaluate(now: UInt64) -> Change? {
        var want: Bool
        deadline = nil
        if let since = readersSince, readers > 0 {
            if now >= since &+ settle {
                want = true
            } else {
                want = running
                deadline = since &+ settle
            }
        } else if let left = lastLeft, running, now < left &+ grace {
            want = true
            deadline = left &+ grace
        } else {
            want = false
            lastLeft = nil
        }
        if snapshots > 0 { want = true }
        guard want != running else { return nil }
        running = want
        if !want { deadline = nil }
        return want ? .start : .stop
    }
}
