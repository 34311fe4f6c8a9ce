/// A monotonic timerfd: one-shot or repeating, armed and disarmed at will.
public final class Timer {
    public let descriptor: FileDescriptor

    public init() throws(SystemCallError) {
        descriptor = FileDescriptor(owning: try Syscall.timerFD())
    }

    public func schedule(after delay: Duration, repeating interval: Duration? = nil) throws(SystemCallError) {
        // A zero initial value would disarm the timer: fire after at least 1 ns.
        try Syscall.timerSet(descriptor.rawValue, initialNanoseconds: max(1, Self.nanoseconds(delay)), intervalNanoseconds: interval.map(Self.nanoseconds) ?? 0)
    }

    public func cancel() {
        try? Syscall.timerSet(descriptor.rawValue, initialNanoseconds: 0, intervalNanoseconds: 0)
    }

    /// On expiry: how many intervals elapsed since the last read (0 if spurious).
    public func acknowledge() -> UInt64 {
        descriptor.readCounter() ?? 0
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
