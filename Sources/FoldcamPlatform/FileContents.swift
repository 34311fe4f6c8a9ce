import Glibc

/// Whole-file reads (configuration, rig and scenario files, sysfs attributes) and writes of
/// files the daemon owns (its metrics textfile). Never a path a client named (docs/security.md).
public enum FileContents {
    /// A file that could not be read whole.
    public enum ReadError: Error, Sendable, Equatable {
        case failed(SystemCallError)
        /// Longer than the caller accepts (a config file does not need more).
        case tooLarge(limit: Int)
    }

    /// The bytes of `path` ("-" is standard input), at most `limit` of them.
    public static func read(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
        if path == "-" {
            return try FileDescriptor.standardInput.readToEnd(limit: limit)
        }
        let file: FileDescriptor
        do { file = try FileDescriptor.open(path, .readOnly) } catch { throw .failed(error) }
        return try file.readToEnd(limit: limit)
    }

    /// A short text file such as a sysfs attribute, read in one read(2) (sysfs produces an
    /// attribute's value in one go; a second read of a changing value could mix two readings).
    package static func readAttribute(_ path: String, subject: String, call: String) throws(SystemCallError) -> String {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(path, .readOnly) } catch { throw SystemCallError("open \(call)", error.errno, subject: subject) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        do {
            let count = try buffer.withMutableBytes { raw throws(SystemCallError) in try file.read(into: raw) }
            return String(decoding: buffer[..<count], as: UTF8.self)
        } catch {
            throw SystemCallError("read \(call)", error.errno, subject: subject)
        }
    }

    /// Writes `value` to an existing attribute in one write(2), which sysfs takes whole.
    package static func writeAttribute(_ path: String, _ value: String, subject: String, call: String) throws(SystemCallError) {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(path, .writeOnly) } catch { throw SystemCallError("open \(call) for writing", error.errno, subject: subject) }
        let bytes = Array(value.utf8)
        do {
            _ = try bytes.withBytes { raw throws(SystemCallError) in try file.write(raw) }
        } catch {
            throw SystemCallError("write \(call)=\(value)", error.errno, subject: subject)
        }
    }

    /// Replaces `directory/name` atomically (`SafeFile.replace`: a new file under an
    /// unpredictable name, renamed over the old one).
    public static func replaceAtomically(_ bytes: [UInt8], directory: String, name: String, mode: mode_t = 0o644, durable: Bool = false) throws(SystemCallError) {
        try SafeFile.replace(bytes, directory: directory, name: name, mode: mode, durable: durable)
    }

    /// Renames `path` to `path` + `suffix` (replacing an older one), keeping a bad file for
    /// whoever looks into why it was not used.
    public static func setAside(_ path: String, suffix: String) throws(SystemCallError) {
        _ = try Syscall.check("rename \(path) to \(path)\(suffix)") { rename(path, path + suffix) }
    }
}
