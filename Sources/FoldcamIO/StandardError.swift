import FoldcamPlatform

/// Writes whole messages to stderr without Foundation; errors are ignored: there is nowhere
/// left to report them.
public enum StandardError {
    public static func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in _ = try? FileDescriptor.standardError.writeAll(raw) }
    }
}
