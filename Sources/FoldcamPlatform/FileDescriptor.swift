/// An owned file descriptor: exactly one owner closes it, once.
public final class FileDescriptor: @unchecked Sendable {
    // Sendable because the number is immutable and close() happens once, in deinit or close().
    public let rawValue: Int32
    private var closed = false

    public init(owning rawValue: Int32) {
        self.rawValue = rawValue
    }

    public func close() {
        guard !closed else { return }
        closed = true
        Syscall.close(rawValue)
    }

    deinit { close() }

    /// Reads what is available; 0 means end of file. Throws `.wouldBlock` when nothing is ready.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try Syscall.read(rawValue, into: buffer)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try Syscall.write(rawValue, from: bytes)
    }

    /// Reads one native-endian 8-byte counter (eventfd, timerfd); nil when none is pending.
    public func readCounter() -> UInt64? {
        var value: UInt64 = 0
        let count = try? withUnsafeMutableBytes(of: &value) { try Syscall.read(rawValue, into: $0) }
        return count == 8 ? value : nil
    }

    public func setNonBlocking() throws(SystemCallError) {
        try Syscall.setNonBlocking(rawValue)
    }
}
