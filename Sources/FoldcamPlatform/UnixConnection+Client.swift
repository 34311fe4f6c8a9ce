import CLinuxShims
import Glibc

extension UnixConnection {
    /// Shuts both directions down without closing the descriptor: a thread blocked reading this
    /// connection wakes up with end-of-stream, and can then close the descriptor itself (so the
    /// number is never reused under a reader's feet).
    public func shutdown() {
        _ = Glibc.shutdown(descriptor.rawValue, Int32(SHUT_RDWR))
    }
}
