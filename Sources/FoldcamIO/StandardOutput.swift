import FoldcamPlatform

/// Writes to stdout without trapping when the reader has gone (`foldcamd ... | head`):
/// FileHandle raises on EPIPE; this reports false instead, and the caller stops printing.
public enum StandardOutput {
    @discardableResult
    public static func write(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in (try? FileDescriptor.standardOutput.writeAll(raw)) != nil }
    }
}
