import FoldcamPlatform

/// A device that failed a call or answered nonsense, named by its node (or sysfs path) and the
/// call: "/dev/video3: VIDIOC_ENUM_FMT failed: Device or resource busy". The device layer logs
/// these and skips the device; none of them stops the daemon.
public struct DeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The call failed with this error number.
        case failed(Errno)
        /// The call succeeded but its answer cannot be right (named in the text).
        case garbage(String)
    }

    public let device: String
    public let call: String
    public let kind: Kind

    public init(device: String, call: String, _ kind: Kind) {
        self.device = device
        self.call = call
        self.kind = kind
    }

    /// Another process holds the device (EBUSY): worth retrying later.
    public var isBusy: Bool { kind == .failed(.busy) }

    /// The device went away under us (unplugged or driver unbound mid-query).
    public var isVanished: Bool {
        guard case let .failed(errno) = kind else { return false }
        return Self.vanishedErrors.contains(errno)
    }

    static let vanishedErrors: Set<Errno> = [.noDevice, .noEntry, Errno(rawValue: 6 /* ENXIO */), Errno(rawValue: 5 /* EIO */)]

    public var description: String {
        switch kind {
        case let .failed(errno): return "\(device): \(call) failed: \(errno)"
        case let .garbage(what): return "\(device): \(call) answered garbage: \(what)"
        }
    }
}
