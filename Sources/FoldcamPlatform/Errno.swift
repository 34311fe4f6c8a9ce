import Glibc

/// A POSIX error number as a Swift error, described with the C library's text.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno`, read right after the failing call.
    package static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noEntry = Errno(rawValue: ENOENT)
    public static let busy = Errno(rawValue: EBUSY)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    public static let ioError = Errno(rawValue: EIO)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let notTTY = Errno(rawValue: ENOTTY)
    public static let badDescriptor = Errno(rawValue: EBADF)
    public static let badAddress = Errno(rawValue: EFAULT)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// A library loaded with dlopen is missing ("Can not access a needed shared library").
    public static let libraryInaccessible = Errno(rawValue: ELIBACC)
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let timedOut = Errno(rawValue: ETIMEDOUT)

    /// The one definition of "the device vanished" (unplugged, or its driver unbound), for every
    /// call on a device node or sysfs path that udev reported:
    /// - ENODEV: the V4L2 and IIO cores answer every call on a node whose device was
    ///   unregistered with it;
    /// - ENXIO: opening a node whose device is gone;
    /// - EIO: calls that were under way when the device went (a USB transfer to an absent
    ///   device, vb2's DQBUF on a queue the driver cancelled at disconnect);
    /// - ENOENT: the node or sysfs attribute is gone. Callers only open paths udev just reported,
    ///   so ENOENT after that means removal, not a wrong name.
    /// A driver's transient EIO is then taken for a removal: the sensor or camera is dropped
    /// and comes back with udev's next add or change event, the safe side of the two mistakes.
    public var meansDeviceVanished: Bool { Self.deviceVanished.contains(self) }

    static let deviceVanished: Set<Errno> = [.noDevice, .noSuchDeviceOrAddress, .ioError, .noEntry]

    public var description: String { String(cString: strerror(rawValue)) }
}

/// A failed system call: what was attempted, on what, and the error. The one errno-carrying
/// error of foldcam: every module reports kernel failures with it.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    public let call: String
    public let errno: Errno
    /// The device node, sysfs path or file the call was about, when the call's name does not
    /// say it: "/dev/video3: VIDIOC_S_FMT failed: Device or resource busy".
    public let subject: String?

    public init(_ call: String, _ errno: Errno, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// Another process holds the device (EBUSY): worth retrying later.
    public var isBusy: Bool { errno == .busy }

    /// See `Errno.meansDeviceVanished`.
    public var deviceVanished: Bool { errno.meansDeviceVanished }

    public var description: String {
        guard let subject else { return "\(call): \(errno)" }
        return "\(subject): \(call) failed: \(errno)"
    }
}
