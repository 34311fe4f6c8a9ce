import Glibc

/// Whole-file writes of files the daemon owns (its metrics textfile). Never a path a client
/// named (docs/security.md).
public enum FileContents {
    /// Replaces `directory/name` atomically: writes a temporary file beside it (a name the
    /// reader ignores, not following symlinks), gives it `mode` whatever the umask, then renames
    /// it over the old one, so a reader sees the old file or the new one, never half of one.
    public static func replaceAtomically(_ bytes: [UInt8], directory: String, name: String, mode: mode_t = 0o644) throws(SystemCallError) {
        let temporary = "\(directory)/.\(name).\(getpid()).tmp"
        let file = FileDescriptor(owning: try Syscall.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode: mode))
        do throws(SystemCallError) {
            _ = try Syscall.check("fchmod \(temporary)") { fchmod(file.rawValue, mode) }
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
            _ = try Syscall.check("rename \(temporary) to \(name)") { rename(temporary, "\(directory)/\(name)") }
        } catch {
            file.close()
            unlink(temporary)
            throw error
        }
    }
}
