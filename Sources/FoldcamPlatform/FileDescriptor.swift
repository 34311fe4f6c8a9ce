/// An owned file descriptor: exactly one owner closes it, once.
public final class FileDescriptor: @unchecked Sendable {
    // Sendable because the number is immutable and close() happens once, in deinit or close().
    public let rawValue: Int32
    /// What errors name: the device node or file it was opened from (nil for sockets and
    /// event sources, whose calls name themselves).
    package let subject: String?
    private var closed = false
    /// False for the standard streams, which belong to the process, not to one owner.
    private let owns: Bool

    public init(owning rawValue: Int32) {
        self.rawValue = rawValue
        subject = nil
        owns = true
    }

    package init(owning rawValue: Int32, subject: String?) {
        self.rawValue = rawValue
        self.subject = subject
        owns = true
    }

    private init(borrowing rawValue: Int32, subject: String) {
        self.rawValue = rawValue
        self.subject = subject
        owns = false
    }

    /// A descriptor a library owns and closes (sd-bus's socket), to watch in an event loop.
    package static func borrowing(_ rawValue: Int32, subject: String) -> FileDescriptor {
        FileDescriptor(borrowing: rawValue, subject: subject)
    }

    /// The standard streams: written and read through the same funnel, never closed.
    package static let standardInput = FileDescriptor(borrowing: 0, subject: "standard input")
    package static let standardOutput = FileDescriptor(borrowing: 1, subject: "standard output")
    package static let standardError = FileDescriptor(borrowing: 2, subject: "standard error")

    /// Opens `path`; errors name it as their subject.
    /// `noFollow`: a symbolic link as the last component is refused (ELOOP), not followed.
    package static func open(_ path: String, _ access: OpenAccess, nonBlocking: Bool = false, noFollow: Bool = false) throws(SystemCallError) -> FileDescriptor {
        let fd = try Syscall.open(path, access.flags | (nonBlocking ? OpenAccess.nonBlockingFlag : 0) | (noFollow ? OpenFlags.noFollow : 0), subject: path)
        return FileDescriptor(owning: fd, subject: path)
    }

    public var isClosed: Bool { closed }

    public func close() {
        guard !closed, owns else { return }
        closed = true
        Syscall.close(rawValue)
    }

    deinit { close() }

    /// Reads what is available; 0 means end of file. Throws `.wouldBlock` when nothing is ready.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try Syscall.read(rawValue, into: buffer, subject: subject)
    }

    /// Reads at `offset` without moving the file position (pread(2)).
    package func read(into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int) throws(SystemCallError) -> Int {
        try Syscall.pread(rawValue, into: buffer, offset: offset, subject: subject)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try Syscall.write(rawValue, from: bytes, subject: subject)
    }

    /// Writes all of `bytes` (a blocking descriptor; short writes continue).
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        try Syscall.writeAll(rawValue, from: bytes, subject: subject)
    }

    /// Reads until end of file, refusing more than `limit` bytes.
    package func readToEnd(limit: Int) throws(FileContents.ReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(limit + 1, 64 * 1024))
        while true {
            let count: Int
            do {
                count = try chunk.withMutableBytes { raw throws(SystemCallError) in try read(into: raw) }
            } catch {
                throw .failed(error)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= limit else { throw .tooLarge(limit: limit) }
        }
    }

    /// Reads one native-endian 8-byte counter (eventfd, timerfd); nil when none is pending.
    public func readCounter() -> UInt64? {
        var value: UInt64 = 0
        let count = try? withUnsafeMutableBytes(of: &value) { try Syscall.read(rawValue, into: $0) }
        return count == 8 ? value : nil
    }

    public func setNonBlocking() throws(SystemCallError) {
        try Syscall.setNonBlocking(rawValue)
    }
}

/// How a file is opened (O_CLOEXEC is always added).
package enum OpenAccess: Sendable {
    case readOnly, writeOnly, readWrite

    var flags: Int32 {
        switch self {
        case .readOnly: return OpenFlags.readOnly
        case .writeOnly: return OpenFlags.writeOnly
        case .readWrite: return OpenFlags.readWrite
        }
    }

    static var nonBlockingFlag: Int32 { OpenFlags.nonBlocking }
}
