import Glibc

/// Writes to stdout without trapping when the reader has gone (`foldcamd ... | head`):
/// FileHandle raises on EPIPE; this reports false instead, and the caller stops printing.
public enum StandardOutput {
    @discardableResult
    public static func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        bytes.removeAll()
        return true
    }
}
