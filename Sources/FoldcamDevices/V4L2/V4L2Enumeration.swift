import FoldcamPlatform
import FoldcamV4L2

/// The questions a probe asks a V4L2 node, through libv4l2 (FoldcamV4L2's typed calls). Every failure names the node and
/// ioctl; an answer that cannot be right is `DeviceError.garbage`.
extension V4L2Device {
    /// Opens a node for probing: read-write, non-blocking (a probe must never wait on a busy
    /// driver), through libv4l2.
    static func forProbing(_ node: String) throws(DeviceError) -> V4L2Device {
        do { return try V4L2Device(node: node, access: .libv4l2, nonBlocking: true) } catch { throw .failed(error) }
    }

    /// The corresponding C call is `VIDIOC_QUERYCAP`.
    func capability() throws(DeviceError) -> V4L2Capability {
        let answer: V4L2CapabilityAnswer
        do { answer = try capabilityAnswer() } catch { throw .failed(error) }
        func text(_ value: String?, _ name: String) throws(DeviceError) -> String {
            guard let value else {
                throw .garbage(device: node, call: "VIDIOC_QUERYCAP", what: "\(name) is not NUL-terminated UTF-8")
            }
            return value
        }
        return V4L2Capability(driver: try text(answer.driver, "driver"), card: try text(answer.card, "card"),
                              busInfo: try text(answer.busInfo, "bus_info"),
                              nodeCapabilities: V4L2CapabilityFlags(rawValue: answer.nodeCapabilities))
    }

    /// The corresponding C call is `VIDIOC_ENUM_FMT`, repeated until EINVAL. Formats libv4l2
    /// emulates by converting are left out: they are not what the device delivers. `emulated`
    /// counts them (a node whose every format is emulated delivers only a raw format libv4l2
    /// does not list, as an IPU's ISYS capture nodes do).
    func enumerateFormats(of type: V4L2BufferType, emulated: inout Int) throws(DeviceError) -> [(fourcc: FourCC, description: String)] {
        var formats: [(FourCC, String)] = []
        for index in 0..<Self.enumerationLimit {
            let entry: V4L2FormatEntry?
            do { entry = try format(at: index, of: type) } catch { throw .failed(error) }
            guard let entry else { return formats }
            if entry.emulated {
                emulated += 1
                continue
            }
            formats.append((entry.fourcc, entry.description ?? "?"))
        }
        throw .garbage(device: node, call: "VIDIOC_ENUM_FMT", what: "more than \(Self.enumerationLimit) formats")
    }

    /// The corresponding C call is `VIDIOC_ENUM_FRAMESIZES`. Stepwise and continuous ranges
    /// are summarized by their largest size.
    func enumerateFrameSizes(fourcc: FourCC) throws(DeviceError) -> [(width: Int, height: Int)] {
        var sizes: [(Int, Int)] = []
        for index in 0..<Self.enumerationLimit {
            let entry: V4L2FrameSizeEntry?
            do { entry = try frameSize(at: index, of: fourcc) } catch { throw .failed(error) }
            switch entry {
            case nil: return sizes
            case let .discrete(width, height)?: sizes.append((width, height))
            case let .range(width, height)?:
                sizes.append((width, height))
                return sizes
            }
        }
        throw .garbage(device: node, call: "VIDIOC_ENUM_FRAMESIZES", what: "more than \(Self.enumerationLimit) sizes")
    }

    /// The corresponding C call is `VIDIOC_ENUM_FRAMEINTERVALS`: intervals as (numerator,
    /// denominator) seconds; stepwise ranges give their shortest interval. A driver that does
    /// not enumerate intervals at all (ENOTTY) gives none (no rate known).
    func enumerateFrameIntervals(fourcc: FourCC, width: Int, height: Int) throws(DeviceError) -> [(numerator: UInt32, denominator: UInt32)] {
        var intervals: [(UInt32, UInt32)] = []
        for index in 0..<Self.enumerationLimit {
            let entry: V4L2FrameIntervalEntry?
            do { entry = try frameInterval(at: index, of: fourcc, width: width, height: height) } catch { throw .failed(error) }
            switch entry {
            case nil: return intervals
            case let .discrete(numerator, denominator)?: intervals.append((numerator, denominator))
            case let .range(numerator, denominator)?:
                intervals.append((numerator, denominator))
                return intervals
            }
        }
        throw .garbage(device: node, call: "VIDIOC_ENUM_FRAMEINTERVALS", what: "more than \(Self.enumerationLimit) intervals")
    }

    /// `has` with the device layer's error.
    func probe(_ control: V4L2Control) throws(DeviceError) -> Bool {
        do { return try has(control) } catch { throw .failed(error) }
    }

    /// `value(of:)` with the device layer's error.
    func probeValue(of control: V4L2Control) throws(DeviceError) -> Int? {
        do { return try value(of: control) } catch { throw .failed(error) }
    }

    /// Bounds every enumeration: a driver that never says EINVAL is answering garbage.
    static let enumerationLimit = 256
}
