import Glibc

/// Whole-file writes for results the daemon hands to users (snapshots).
public enum FileContents {
    /// Creates or truncates `path` (mode 0644 before the umask) and writes all of `bytes`.
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        let file = FileDescriptor(owning: try Syscall.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644))
        let failure: SystemCallError? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                do throws(SystemCallError) {
                    offset += try file.write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                } catch {
                    return error
                }
            }
            return nil
        }
        if let failure { throw failure }
        file.close()
    }
}
