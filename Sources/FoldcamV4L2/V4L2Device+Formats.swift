import CV4L2
import FoldcamPlatform

/// Which side of a node a format, buffer or stream is for.
package enum V4L2BufferType: Sendable, Equatable {
    case videoCapture, videoCaptureMultiplanar, videoOutput

    package var rawValue: UInt32 {
        switch self {
        case .videoCapture: return cv4l2_BUF_TYPE_VIDEO_CAPTURE
        case .videoCaptureMultiplanar: return cv4l2_BUF_TYPE_VIDEO_CAPTURE_MPLANE
        case .videoOutput: return cv4l2_BUF_TYPE_VIDEO_OUTPUT
        }
    }
}

/// One `VIDIOC_ENUM_FMT` entry.
package struct V4L2FormatEntry: Sendable {
    package var fourcc: FourCC
    /// The driver's description; nil when it is not NUL-terminated UTF-8.
    package var description: String?
    /// libv4l2 converts to it: not what the device delivers.
    package var emulated: Bool
}

/// One `VIDIOC_ENUM_FRAMESIZES` entry: a size, or a stepwise or continuous range (its largest size).
package enum V4L2FrameSizeEntry: Sendable, Equatable {
    case discrete(width: Int, height: Int)
    case range(maximumWidth: Int, maximumHeight: Int)
}

/// One `VIDIOC_ENUM_FRAMEINTERVALS` entry, seconds as numerator/denominator: an interval, or a
/// stepwise or continuous range (its shortest interval).
package enum V4L2FrameIntervalEntry: Sendable, Equatable {
    case discrete(numerator: UInt32, denominator: UInt32)
    case range(minimumNumerator: UInt32, minimumDenominator: UInt32)
}

/// What `VIDIOC_QUERYCAP` says, strings decoded (nil: not NUL-terminated UTF-8).
package struct V4L2CapabilityAnswer: Sendable {
    package var driver: String?
    package var card: String?
    package var busInfo: String?
    /// This node's capabilities (`device_caps`, or `capabilities` from drivers too old to have it).
    package var nodeCapabilities: UInt32
}

/// The enumerations a probe walks, one entry at a time: nil past the end (the driver answers
/// EINVAL). The caller bounds the walk.
extension V4L2Device {
    package func capabilityAnswer() throws(SystemCallError) -> V4L2CapabilityAnswer {
        let capability = try queryCapability()
        return V4L2CapabilityAnswer(driver: Self.decode(capability.driver), card: Self.decode(capability.card),
                                    busInfo: Self.decode(capability.bus_info), nodeCapabilities: Self.nodeCapabilities(capability))
    }

    package func format(at index: Int, of type: V4L2BufferType) throws(SystemCallError) -> V4L2FormatEntry? {
        var format = v4l2_fmtdesc()
        format.index = UInt32(index)
        format.type = type.rawValue
        guard try control(cv4l2_VIDIOC_ENUM_FMT, "VIDIOC_ENUM_FMT", &format, unlessFailingWith: [.invalidArgument]) else { return nil }
        return V4L2FormatEntry(fourcc: FourCC(rawValue: format.pixelformat), description: Self.decode(format.description),
                               emulated: format.flags & cv4l2_FMT_FLAG_EMULATED != 0)
    }

    package func frameSize(at index: Int, of fourcc: FourCC) throws(SystemCallError) -> V4L2FrameSizeEntry? {
        var size = v4l2_frmsizeenum()
        size.index = UInt32(index)
        size.pixel_format = fourcc.rawValue
        guard try control(cv4l2_VIDIOC_ENUM_FRAMESIZES, "VIDIOC_ENUM_FRAMESIZES", &size, unlessFailingWith: [.invalidArgument]) else { return nil }
        if size.type == cv4l2_FRMSIZE_TYPE_DISCRETE { return .discrete(width: Int(size.discrete.width), height: Int(size.discrete.height)) }
        return .range(maximumWidth: Int(size.stepwise.max_width), maximumHeight: Int(size.stepwise.max_height))
    }

    /// Nil past the end, and from a driver that does not enumerate intervals at all (ENOTTY).
    package func frameInterval(at index: Int, of fourcc: FourCC, width: Int, height: Int) throws(SystemCallError) -> V4L2FrameIntervalEntry? {
        var interval = v4l2_frmivalenum()
        interval.index = UInt32(index)
        interval.pixel_format = fourcc.rawValue
        interval.width = UInt32(clamping: width)
        interval.height = UInt32(clamping: height)
        guard try control(cv4l2_VIDIOC_ENUM_FRAMEINTERVALS, "VIDIOC_ENUM_FRAMEINTERVALS", &interval, unlessFailingWith: [.invalidArgument, .notTTY]) else { return nil }
        if interval.type == cv4l2_FRMIVAL_TYPE_DISCRETE {
            return .discrete(numerator: interval.discrete.numerator, denominator: interval.discrete.denominator)
        }
        return .range(minimumNumerator: interval.stepwise.min.numerator, minimumDenominator: interval.stepwise.min.denominator)
    }

    /// A fixed-size C char array (imported as a tuple) as a string; nil without a NUL or when
    /// it is not UTF-8.
    static func decode<Tuple>(_ tuple: Tuple) -> String? {
        withUnsafeBytes(of: tuple) { bytes in
            guard let end = bytes.firstIndex(of: 0) else { return nil }
            return String(validating: bytes[..<end], as: UTF8.self)
        }
    }
}
