import CLinuxShims
import Glibc

/// How the C allocator treats the daemon's large buffers.
public enum MemoryPolicy {
    /// Large blocks (client output over 128 KiB, PNG snapshots, frames) are mapped on their
    /// own and go back to the system when freed. glibc otherwise raises its mmap threshold
    /// after the first such free and serves later ones from the heap, which it keeps: a burst
    /// of clients that never read left a long-running daemon 24 MB larger for good.
    public static func returnLargeBlocksToSystem() {
        _ = mallopt(cfoldcam_M_MMAP_THRESHOLD, 128 * 1024)
        _ = mallopt(cfoldcam_M_TRIM_THRESHOLD, 256 * 1024)
    }
}
