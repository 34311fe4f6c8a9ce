import Glibc

/// A POSIX error number as a Swift error, described with the C library's text.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno`, read right after the failing call.
    static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noEntry = Errno(rawValue: ENOENT)
    public static let busy = Errno(rawValue: EBUSY)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    public static let notPermitted = Errno(rawValue: EPERM)

    public var description: String { String(cString: strerror(rawValue)) }
}

/// A failed system call: what was attempted, and the error.
public struct SystemCallError: Error, Sendable, CustomStringConvertible {
    public let call: String
    public let errno: Errno

    public init(_ call: String, _ errno: Errno) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(errno)" }
}
