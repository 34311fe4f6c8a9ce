import CLinuxShims
import Glibc

extension UnixConnection {
    /// Shuts both directions down without closing the descriptor: a thread blocked reading this
    /// connection wakes up with end-of-stream. The owner closes the descriptor only once no
    /// thread can use its number any more (a number closed early is reused by the next
    /// descriptor the process opens, and a later shutdown or write would hit that one).
    public func shutdown() {
        _ = Glibc.shutdown(descriptor.rawValue, Int32(SHUT_RDWR))
    }
}
