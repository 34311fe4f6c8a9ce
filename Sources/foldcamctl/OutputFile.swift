import FoldcamPlatform
import Glibc

/// A file the user named on the command line (`rig render -o`, `snapshot OUT.png`), created or
/// truncated and written whole through Platform's descriptor funnel.
enum OutputFile {
    /// Which step failed and why (the errno prints as its text: "No such file or directory").
    struct WriteError: Error {
        var step: String
        var errno: Errno
    }

    static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let file: FileDescriptor
        do {
            file = FileDescriptor(owning: try Syscall.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o666, subject: path), subject: path)
        } catch {
            throw WriteError(step: "open", errno: error.errno)
        }
        do {
            try bytes.withBytes { raw throws(SystemCallError) in try file.writeAll(raw) }
        } catch {
            throw WriteError(step: "write", errno: error.errno)
        }
        file.close()
    }
}
