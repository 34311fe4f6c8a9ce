/// Pixel layouts the producer handles: the ones cameras and v4l2loopback readers share most.
public enum PixelFormat: String, Sendable, CaseIterable {
    /// Y plane (w×h bytes), then one interleaved UV plane at half resolution (w×h/2 bytes).
    case nv12 = "NV12"
    /// Packed 4:2:2: each pair of pixels is Y0 U Y1 V.
    case yuyv = "YUYV"

    public func byteCount(width: Int, height: Int) -> Int {
        switch self {
        case .nv12: return width * height * 3 / 2
        case .yuyv: return width * height * 2
        }
    }

    /// Sizes a format can carry: NV12 and YUYV subsample chroma by two across (and NV12 down).
    public func accepts(width: Int, height: Int) -> Bool {
        width > 0 && height > 0 && width % 2 == 0 && (self == .yuyv || height % 2 == 0)
    }
}

/// One frame: its layout, its bytes, and where and when it came from.
public struct VideoFrame: Sendable, Equatable {
    public var format: PixelFormat
    public var width: Int
    public var height: Int
    public var bytes: [UInt8]
    /// Capture time on the monotonic clock, nanoseconds.
    public var timestamp: UInt64
    /// The rig camera that captured it; nil for generated frames ("camera unavailable").
    public var source: String?

    public init(format: PixelFormat, width: Int, height: Int, bytes: [UInt8], timestamp: UInt64 = 0, source: String? = nil) {
        precondition(bytes.count == format.byteCount(width: width, height: height), "frame size does not match its format")
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.timestamp = timestamp
        self.source = source
    }

    /// A frame filled with one colour.
    public init(format: PixelFormat, width: Int, height: Int, filledWith colour: YUV, timestamp: UInt64 = 0, source: String? = nil) {
        var bytes = [UInt8](repeating: 0, count: format.byteCount(width: width, height: height))
        switch format {
        case .nv12:
            let lumaCount = width * height
            for index in 0..<lumaCount { bytes[index] = colour.y }
            var index = lumaCount
            while index < bytes.count {
                bytes[index] = colour.u
                bytes[index + 1] = colour.v
                index += 2
            }
        case .yuyv:
            var index = 0
            while index < bytes.count {
                bytes[index] = colour.y
                bytes[index + 1] = colour.u
                bytes[index + 2] = colour.y
                bytes[index + 3] = colour.v
                index += 4
            }
        }
        self.init(format: format, width: width, height: height, bytes: bytes, timestamp: timestamp, source: source)
    }
}

/// A colour in BT.601 limited-range YCbCr, the default of V4L2 capture devices.
public struct YUV: Sendable, Equatable, Hashable {
    public var y: UInt8
    public var u: UInt8
    public var v: UInt8

    public init(y: UInt8, u: UInt8, v: UInt8) {
        self.y = y
        self.u = u
        self.v = v
    }

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        let r = Double(red), g = Double(green), b = Double(blue)
        func clamp(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        y = clamp(16 + 0.257 * r + 0.504 * g + 0.098 * b)
        u = clamp(128 - 0.148 * r - 0.291 * g + 0.439 * b)
        v = clamp(128 + 0.439 * r - 0.368 * g - 0.071 * b)
    }

    /// Back to 8-bit RGB (for PNG snapshots).
    public var rgb: (red: UInt8, green: UInt8, blue: UInt8) {
        let c = 1.164 * (Double(y) - 16), d = Double(u) - 128, e = Double(v) - 128
        func clamp(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        return (clamp(c + 1.596 * e), clamp(c - 0.392 * d - 0.813 * e), clamp(c + 2.017 * d))
    }
}
