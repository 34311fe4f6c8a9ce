import CVideoStreaming
import Glibc

/// A V4L2 failure naming the device and the request, e.g.
/// "/dev/video3: VIDIOC_S_FMT failed: Device or resource busy".
public struct VideoDeviceError: Error, Sendable, CustomStringConvertible {
    public var node: String
    public var call: String
    public var errno: Int32

    public var isBusy: Bool { errno == EBUSY }
    public var vanished: Bool { errno == ENODEV || errno == ENXIO || errno == ENOENT }

    public var description: String { "\(node): \(call) failed: \(String(cString: strerror(errno)))" }
}

/// An open V4L2 device node: the only owner of its descriptor, which never leaves it.
final class VideoDeviceFile {
    let node: String
    private(set) var fd: Int32

    init(node: String, nonBlocking: Bool) throws(VideoDeviceError) {
        let flags = O_RDWR | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
        let fd = Glibc.open(node, flags)
        guard fd >= 0 else { throw VideoDeviceError(node: node, call: "open", errno: errno) }
        self.node = node
        self.fd = fd
    }

    deinit { close() }

    /// Closes now rather than when the last reference goes (v4l2loopback acts on the close).
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// One ioctl, retried on EINTR; EAGAIN is returned as false (nothing ready), not thrown.
    @discardableResult
    @inline(never)
    func control<T>(_ request: UInt, _ name: String, _ argument: inout T) throws(VideoDeviceError) -> Bool {
        while true {
            let result = withUnsafeMutablePointer(to: &argument) { Glibc.ioctl(fd, request, UnsafeMutableRawPointer($0)) }
            if result != -1 { return true }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN { return false }
            throw VideoDeviceError(node: node, call: name, errno: error)
        }
    }

    func capabilities() throws(VideoDeviceError) -> (driver: String, card: String, caps: UInt32) {
        var capability = v4l2_capability()
        try control(UInt(cvs_VIDIOC_QUERYCAP), "VIDIOC_QUERYCAP", &capability)
        let driver = withUnsafeBytes(of: capability.driver) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let card = withUnsafeBytes(of: capability.card) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let caps = capability.capabilities & cvs_CAP_DEVICE_CAPS != 0 ? capability.device_caps : capability.capabilities
        return (driver, card, caps)
    }

    /// Controls by name (v4l2loopback's keep_format, sustain_framerate, timeout have driver ids).
    func controlIDs() -> [String: UInt32] {
        var found: [String: UInt32] = [:]
        var query = v4l2_queryctrl()
        query.id = cvs_CTRL_FLAG_NEXT_CTRL
        while (try? control(UInt(cvs_VIDIOC_QUERYCTRL), "VIDIOC_QUERYCTRL", &query)) == true {
            let name = withUnsafeBytes(of: query.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if query.flags & cvs_CTRL_FLAG_DISABLED == 0 { found[name.lowercased()] = query.id }
            query.id |= cvs_CTRL_FLAG_NEXT_CTRL
        }
        return found
    }

    /// Whether the device has an enabled control with this id.
    func hasControl(_ id: UInt32) -> Bool {
        var query = v4l2_queryctrl()
        query.id = id
        return (try? control(UInt(cvs_VIDIOC_QUERYCTRL), "VIDIOC_QUERYCTRL", &query)) == true && query.flags & cvs_CTRL_FLAG_DISABLED == 0
    }

    func setControl(_ id: UInt32, _ value: Int32, name: String) throws(VideoDeviceError) {
        var setting = v4l2_control(id: id, value: value)
        try control(UInt(cvs_VIDIOC_S_CTRL), "VIDIOC_S_CTRL \(name)", &setting)
    }

    static func fourCC(_ format: PixelFormatCode) -> UInt32 { format.rawValue }
}

/// FourCC codes of the formats the producer moves.
enum PixelFormatCode: UInt32 {
    case nv12 = 0x3231_564E  // 'N','V','1','2'
    case yuyv = 0x5659_5559  // 'Y','U','Y','V'
}
