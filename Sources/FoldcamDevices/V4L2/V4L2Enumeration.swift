import CV4L2
import FoldcamPlatform
import FoldcamV4L2

/// The questions a probe asks a V4L2 node, through libv4l2. Every failure names the node and
/// ioctl; an answer that cannot be right is `DeviceError.garbage`.
extension V4L2Device {
    /// Opens a node for probing: read-write, non-blocking (a probe must never wait on a busy
    /// driver), through libv4l2.
    static func forProbing(_ node: String) throws(DeviceError) -> V4L2Device {
        do { return try V4L2Device(node: node, access: .libv4l2, nonBlocking: true) } catch { throw .failed(error) }
    }

    /// One enumeration step: false at the end of the list (the driver answers EINVAL, or any
    /// of `alsoEnding`).
    private func enumerate<T>(_ request: UInt, _ name: String, _ argument: inout T, alsoEnding: Set<Errno> = []) throws(DeviceError) -> Bool {
        do { return try control(request, name, &argument, unlessFailingWith: alsoEnding.union([.invalidArgument])) } catch { throw .failed(error) }
    }

    /// The corresponding C call is `VIDIOC_QUERYCAP`.
    func capability() throws(DeviceError) -> V4L2Capability {
        let capability: v4l2_capability
        do { capability = try queryCapability() } catch { throw .failed(error) }
        func text<Tuple>(_ field: Tuple, _ name: String) throws(DeviceError) -> String {
            guard let value = CString.decode(field) else {
                throw .garbage(device: node, call: "VIDIOC_QUERYCAP", what: "\(name) is not NUL-terminated UTF-8")
            }
            return value
        }
        return V4L2Capability(driver: try text(capability.driver, "driver"), card: try text(capability.card, "card"),
                              busInfo: try text(capability.bus_info, "bus_info"),
                              nodeCapabilities: V4L2CapabilityFlags(rawValue: Self.nodeCapabilities(capability)))
    }

    /// The corresponding C call is `VIDIOC_ENUM_FMT`, repeated until EINVAL. Formats libv4l2
    /// emulates by converting are left out: they are not what the device delivers.
    func enumerateFormats(bufferType: UInt32) throws(DeviceError) -> [(fourcc: FourCC, description: String)] {
        var formats: [(FourCC, String)] = []
        for index in 0..<Self.enumerationLimit {
            var format = v4l2_fmtdesc()
            format.index = UInt32(index)
            format.type = bufferType
            guard try enumerate(cv4l2_VIDIOC_ENUM_FMT, "VIDIOC_ENUM_FMT", &format) else { return formats }
            if format.flags & cv4l2_FMT_FLAG_EMULATED != 0 { continue }
            formats.append((FourCC(rawValue: format.pixelformat), CString.decode(format.description) ?? "?"))
        }
        throw .garbage(device: node, call: "VIDIOC_ENUM_FMT", what: "more than \(Self.enumerationLimit) formats")
    }

    /// The corresponding C call is `VIDIOC_ENUM_FRAMESIZES`. Stepwise and continuous ranges
    /// are summarized by their largest size.
    func enumerateFrameSizes(fourcc: FourCC) throws(DeviceError) -> [(width: Int, height: Int)] {
        var sizes: [(Int, Int)] = []
        for index in 0..<Self.enumerationLimit {
            var size = v4l2_frmsizeenum()
            size.index = UInt32(index)
            size.pixel_format = fourcc.rawValue
            guard try enumerate(cv4l2_VIDIOC_ENUM_FRAMESIZES, "VIDIOC_ENUM_FRAMESIZES", &size) else { return sizes }
            if size.type == cv4l2_FRMSIZE_TYPE_DISCRETE {
                sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
            } else {
                sizes.append((Int(size.stepwise.max_width), Int(size.stepwise.max_height)))
                return sizes
            }
        }
        throw .garbage(device: node, call: "VIDIOC_ENUM_FRAMESIZES", what: "more than \(Self.enumerationLimit) sizes")
    }

    /// The corresponding C call is `VIDIOC_ENUM_FRAMEINTERVALS`: intervals as (numerator,
    /// denominator) seconds; stepwise ranges give their shortest interval.
    func enumerateFrameIntervals(fourcc: FourCC, width: Int, height: Int) throws(DeviceError) -> [(numerator: UInt32, denominator: UInt32)] {
        var intervals: [(UInt32, UInt32)] = []
        for index in 0..<Self.enumerationLimit {
            var interval = v4l2_frmivalenum()
            interval.index = UInt32(index)
            interval.pixel_format = fourcc.rawValue
            interval.width = UInt32(clamping: width)
            interval.height = UInt32(clamping: height)
            // ENOTTY: the driver does not enumerate intervals at all (no rate known).
            guard try enumerate(cv4l2_VIDIOC_ENUM_FRAMEINTERVALS, "VIDIOC_ENUM_FRAMEINTERVALS", &interval, alsoEnding: [.notTTY]) else { return intervals }
            if interval.type == cv4l2_FRMIVAL_TYPE_DISCRETE {
                intervals.append((interval.discrete.numerator, interval.discrete.denominator))
            } else {
                intervals.append((interval.stepwise.min.numerator, interval.stepwise.min.denominator))
                return intervals
            }
        }
        throw .garbage(device: node, call: "VIDIOC_ENUM_FRAMEINTERVALS", what: "more than \(Self.enumerationLimit) intervals")
    }

    /// `hasControl` with the device layer's error.
    func probeControl(_ id: UInt32, name: String) throws(DeviceError) -> Bool {
        do { return try hasControl(id, name: name) } catch { throw .failed(error) }
    }

    /// `controlValue` with the device layer's error.
    func probeControlValue(_ id: UInt32, name: String) throws(DeviceError) -> Int? {
        do { return try controlValue(id, name: name) } catch { throw .failed(error) }
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
