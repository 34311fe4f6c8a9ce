import FoldcamPlatform

/// Runs blocking work on its own detached POSIX thread, never on Swift's cooperative pool
/// (a blocked socket read there would starve every other task).
enum ReaderThread {
    /// Starts `body` on a new thread; false when the system refuses a new thread.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        OSThread.detach(name: "foldcam-client", body)
    }
}

/// Splits a byte stream into lines (without "\n" or a trailing "\r").
struct LineSplitter {
    private var buffer: [UInt8] = []
    /// Longest line accepted from the daemon; beyond this the stream is considered broken.
    static let maximumLineBytes = 16 * 1024 * 1024

    var pendingCount: Int { buffer.count }

    mutating func append(_ bytes: UnsafeRawBufferPointer, line: (ArraySlice<UInt8>) -> Void) {
        buffer.append(contentsOf: bytes)
        var start = buffer.startIndex
        while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var slice = buffer[start..<newline]
            if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
            start = newline + 1
            if !slice.isEmpty { line(slice) }
        }
        buffer.removeSubrange(..<start)
    }
}
