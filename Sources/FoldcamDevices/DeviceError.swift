import FoldcamPlatform

/// A device that failed a call or answered nonsense, named by its node (or sysfs path) and the
/// call: "/dev/video3: VIDIOC_ENUM_FMT failed: Device or resource busy". The device layer logs
/// these and skips the device; none of them stops the daemon.
public enum DeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call failed (`SystemCallError.subject` names the device).
    case failed(SystemCallError)
    /// The call succeeded but its answer cannot be right (named in `what`).
    case garbage(device: String, call: String, what: String)

    /// Another process holds the device (EBUSY): worth retrying later.
    public var isBusy: Bool {
        guard case let .failed(error) = self else { return false }
        return error.isBusy
    }

    /// The device went away under us: `Errno.meansDeviceVanished`, the one definition.
    public var isVanished: Bool {
        guard case let .failed(error) = self else { return false }
        return error.deviceVanished
    }

    /// The error number of a failed call.
    public var errno: Errno? {
        guard case let .failed(error) = self else { return nil }
        return error.errno
    }

    public var description: String {
        switch self {
        case let .failed(error): return "\(error)"
        case let .garbage(device, call, what): return "\(device): \(call) answered garbage: \(what)"
        }
    }
}
