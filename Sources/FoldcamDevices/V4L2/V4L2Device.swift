import CV4L2
import FoldcamPlatform
import Glibc

/// An open V4L2 node, through libv4l2 (which works around driver quirks). Owned by the device
/// thread for the length of one probe; never shared. Every failure names the node and ioctl.
/// - SeeAlso: man v4l2_open(3), https://docs.kernel.org/userspace-api/media/v4l/user-func.html
final class V4L2Device {
    let node: String
    private let fd: Int32

    /// Opens read-write and non-blocking (a probe must never wait on a busy driver).
    init(node: String) throws(DeviceError) {
        self.node = node
        let fd = cv4l2_open(node, cv4l2_O_RDWR | cv4l2_O_NONBLOCK | cv4l2_O_CLOEXEC)
        guard fd >= 0 else { throw DeviceError(device: node, call: "open", .failed(Errno(rawValue: errno))) }
        self.fd = fd
    }

    deinit { _ = cv4l2_close(fd) }  // Nothing to do about a failed close of a probe handle.

    /// One ioctl; retries on EINTR. Returns the error number instead of throwing so that
    /// enumerations can tell "end of list" (EINVAL) from failure.
    @inline(never)
    private func ioctl<T>(_ request: UInt, _ argument: inout T) -> Errno? {
        while true {
            // T is always an imported V4L2 struct (plain bytes).
            if withUnsafeMutablePointer(to: &argument, { cv4l2_ioctl(fd, request, UnsafeMutableRawPointer($0)) }) != -1 { return nil }
            let error = Errno(rawValue: errno)
            if error != .interrupted { return error }
        }
    }

    private func fail(_ call: String, _ error: Errno) -> DeviceError {
        DeviceError(device: node, call: call, .failed(error))
    }

    /// The corresponding C call is `VIDIOC_QUERYCAP`.
    func queryCapability() throws(DeviceError) -> V4L2Capability {
        var capability = v4l2_capability()
        if let error = ioctl(cv4l2_VIDIOC_QUERYCAP, &capability) { throw fail("VIDIOC_QUERYCAP", error) }
        let all = V4L2CapabilityFlags(rawValue: capability.capabilities)
        let node = all.contains(.deviceCaps) ? V4L2CapabilityFlags(rawValue: capability.device_caps) : all
        func text<Tuple>(_ field: Tuple, _ name: String) throws(DeviceError) -> String {
            guard let value = CString.decode(field) else {
                throw DeviceError(device: self.node, call: "VIDIOC_QUERYCAP", .garbage("\(name) is not NUL-terminated UTF-8"))
            }
            return value
        }
        return V4L2Capability(driver: try text(capability.driver, "driver"), card: try text(capability.card, "card"),
                              busInfo: try text(capability.bus_info, "bus_info"), nodeCapabilities: node)
    }

    /// The corresponding C call is `VIDIOC_ENUM_FMT`, repeated until EINVAL. Formats libv4l2
    /// emulates by converting are left out: they are not what the device delivers.
    func enumerateFormats(bufferType: UInt32) throws(DeviceError) -> [(fourcc: UInt32, description: String)] {
        var formats: [(UInt32, String)] = []
        for index in 0..<Self.enumerationLimit {
            var format = v4l2_fmtdesc()
            format.index = UInt32(index)
            format.type = bufferType
            if let error = ioctl(cv4l2_VIDIOC_ENUM_FMT, &format) {
                if error == Errno(rawValue: EINVAL) { return formats }
                throw fail("VIDIOC_ENUM_FMT", error)
            }
            if format.flags & cv4l2_FMT_FLAG_EMULATED != 0 { continue }
            formats.append((format.pixelformat, CString.decode(format.description) ?? "?"))
        }
        throw DeviceError(device: node, call: "VIDIOC_ENUM_FMT", .garbage("more than \(Self.enumerationLimit) formats"))
    }

    /// The corresponding C call is `VIDIOC_ENUM_FRAMESIZES`. Stepwise and continuous ranges
    /// are summarized by their largest size.
    func enumerateFrameSizes(fourcc: UInt32) throws(DeviceError) -> [(width: Int, height: Int)] {
        var sizes: [(Int, Int)] = []
        for index in 0..<Self.enumerationLimit {
            var size = v4l2_frmsizeenum()
            size.index = UInt32(index)
            size.pixel_format = fourcc
            if let error = ioctl(cv4l2_VIDIOC_ENUM_FRAMESIZES, &size) {
                if error == Errno(rawValue: EINVAL) { return sizes }
                throw fail("VIDIOC_ENUM_FRAMESIZES", error)
            }
            if size.type == cv4l2_FRMSIZE_TYPE_DISCRETE {
                sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
            } else {
                sizes.append((Int(size.stepwise.max_width), Int(size.stepwise.max_height)))
                return sizes
            }
        }
        throw DeviceError(device: node, call: "VIDIOC_ENUM_FRAMESIZES", .garbage("more than \(Self.enumerationLimit) sizes"))
    }

    /// The corresponding C call is `VIDIOC_ENUM_FRAMEINTERVALS`: intervals as (numerator,
    /// denominator) seconds; stepwise ranges give their shortest interval.
    func enumerateFrameIntervals(fourcc: UInt32, width: Int, height: Int) throws(DeviceError) -> [(numerator: UInt32, denominator: UInt32)] {
        var intervals: [(UInt32, UInt32)] = []
        for index in 0..<Self.enumerationLimit {
            var interval = v4l2_frmivalenum()
            interval.index = UInt32(index)
            interval.pixel_format = fourcc
            interval.width = UInt32(clamping: width)
            interval.height = UInt32(clamping: height)
            if let error = ioctl(cv4l2_VIDIOC_ENUM_FRAMEINTERVALS, &interval) {
                // ENOTTY: the driver does not enumerate intervals at all (no rate known).
                if error == Errno(rawValue: EINVAL) || error == Errno(rawValue: ENOTTY) { return intervals }
                throw fail("VIDIOC_ENUM_FRAMEINTERVALS", error)
            }
            if interval.type == cv4l2_FRMIVAL_TYPE_DISCRETE {
                intervals.append((interval.discrete.numerator, interval.discrete.denominator))
            } else {
                intervals.append((interval.stepwise.min.numerator, interval.stepwise.min.denominator))
                return intervals
            }
        }
        throw DeviceError(device: node, call: "VIDIOC_ENUM_FRAMEINTERVALS", .garbage("more than \(Self.enumerationLimit) intervals"))
    }

    /// Whether a control exists and is enabled (`VIDIOC_QUERYCTRL`; EINVAL means absent).
    func hasControl(_ id: UInt32, name: String) throws(DeviceError) -> Bool {
        var query = v4l2_queryctrl()
        query.id = id
        if let error = ioctl(cv4l2_VIDIOC_QUERYCTRL, &query) {
            if error == Errno(rawValue: EINVAL) { return false }
            throw fail("VIDIOC_QUERYCTRL(\(name))", error)
        }
        return query.flags & cv4l2_CTRL_FLAG_DISABLED == 0
    }

    /// A control's value, or nil when the device lacks it (`VIDIOC_QUERYCTRL` then `VIDIOC_G_CTRL`).
    func controlValue(_ id: UInt32, name: String) throws(DeviceError) -> Int? {
        guard try hasControl(id, name: name) else { return nil }
        var control = v4l2_control()
        control.id = id
        if let error = ioctl(cv4l2_VIDIOC_G_CTRL, &control) { throw fail("VIDIOC_G_CTRL(\(name))", error) }
        return Int(control.value)
    }

    /// Bounds every enumeration: a driver that never says EINVAL is answering garbage.
    static let enumerationLimit = 256
}

/// Fixed-size C char arrays (imported as tuples) to Swift strings.
enum CString {
    /// nil when the array has no NUL or is not UTF-8.
    static func decode<Tuple>(_ tuple: Tuple) -> String? {
        withUnsafeBytes(of: tuple) { bytes in
            guard let end = bytes.firstIndex(of: 0) else { return nil }
            return String(validating: bytes[..<end], as: UTF8.self)
        }
    }
}
