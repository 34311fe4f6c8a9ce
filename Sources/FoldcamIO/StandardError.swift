import Glibc

/// Writes whole messages to stderr (fd 2) without Foundation, retrying short writes; errors are
/// ignored: there is nowhere left to report them.
public enum StandardError {
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
        bytes.removeAll()
    }
}
