import FoldcamV4L2

/// What a V4L2 device said about itself, as plain values: the prober fills these from ioctls and
/// tests write them by hand. The classifier turns them into a `CameraDescriptor`.
public struct V4L2Answers: Sendable, Equatable {
    public var capability: V4L2Capability
    public var formats: [V4L2Format]
    public var controls: V4L2Controls
    /// The node listed formats, but every one was libv4l2's software conversion: what it
    /// delivers itself is a raw format libv4l2 does not pass on (Bayer on an IPU ISYS node).
    public var onlyEmulatedFormats = false
    /// The sub-device the orientation and rotation controls were read from, when not this node
    /// ("/dev/v4l-subdev4 (ov02e10 3-0010)").
    public var mountingFrom: String?
    /// The sensor the media graph says feeds this capture node, looked up when the node has
    /// no mounting controls of its own.
    public var linkedSensor: MediaSensorLink?
    /// That sensor's sub-device as people read it ("/dev/v4l-subdev1 (Sensor B)"), once the
    /// inventory has seen the sub-device.
    public var sensorNode: String?

    public init(capability: V4L2Capability, formats: [V4L2Format] = [], controls: V4L2Controls = V4L2Controls()) {
        self.capability = capability
        self.formats = formats
        self.controls = controls
    }
}

/// VIDIOC_QUERYCAP's answer.
public struct V4L2Capability: Sendable, Equatable {
    public var driver: String
    public var card: String
    public var busInfo: String
    /// The node's own capabilities (`device_caps`, or `capabilities` from drivers too old to
    /// have it): what this node does, not the whole device.
    public var nodeCapabilities: V4L2CapabilityFlags

    public init(driver: String, card: String, busInfo: String, nodeCapabilities: V4L2CapabilityFlags) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.nodeCapabilities = nodeCapabilities
    }
}

/// The V4L2_CAP_* bits foldcam looks at. Values are the kernel's (checked against the C header
/// in the tests).
public struct V4L2CapabilityFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let videoCapture = V4L2CapabilityFlags(rawValue: 0x0000_0001)
    public static let videoOutput = V4L2CapabilityFlags(rawValue: 0x0000_0002)
    public static let videoCaptureMultiplanar = V4L2CapabilityFlags(rawValue: 0x0000_1000)
    public static let videoOutputMultiplanar = V4L2CapabilityFlags(rawValue: 0x0000_2000)
    public static let memoryToMemoryMultiplanar = V4L2CapabilityFlags(rawValue: 0x0000_4000)
    public static let memoryToMemory = V4L2CapabilityFlags(rawValue: 0x0000_8000)
    public static let metadataCapture = V4L2CapabilityFlags(rawValue: 0x0080_0000)
    public static let deviceCaps = V4L2CapabilityFlags(rawValue: 0x8000_0000)
}

/// One pixel format (VIDIOC_ENUM_FMT) with its sizes and rates.
public struct V4L2Format: Sendable, Equatable {
    /// "YUYV", "MJPG", "Z16 ", ...
    public var fourcc: FourCC
    public var description: String
    public var sizes: [V4L2FrameSize]

    public init(fourcc: FourCC, description: String, sizes: [V4L2FrameSize]) {
        self.fourcc = fourcc
        self.description = description
        self.sizes = sizes
    }
}

/// One discrete frame size (VIDIOC_ENUM_FRAMESIZES) with its best rate (VIDIOC_ENUM_FRAMEINTERVALS).
public struct V4L2FrameSize: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Frames per second at the shortest interval; nil when the driver lists no intervals.
    public var maximumFPS: Double?

    public init(width: Int, height: Int, maximumFPS: Double?) {
        self.width = width
        self.height = height
        self.maximumFPS = maximumFPS
    }
}

/// The controls foldcam reads (VIDIOC_QUERYCTRL, VIDIOC_G_CTRL).
public struct V4L2Controls: Sendable, Equatable {
    /// V4L2_CID_CAMERA_ORIENTATION: 0 front, 1 back, 2 external.
    public var orientation: Int?
    /// V4L2_CID_CAMERA_SENSOR_ROTATION: counter-clockwise degrees, as V4L2 defines it.
    public var sensorRotationCounterClockwise: Int?
    public var hasHorizontalFlip = false
    public var hasVerticalFlip = false
    public var hasRotate = false

    public init(orientation: Int? = nil, sensorRotationCounterClockwise: Int? = nil, hasHorizontalFlip: Bool = false, hasVerticalFlip: Bool = false, hasRotate: Bool = false) {
        self.orientation = orientation
        self.sensorRotationCounterClockwise = sensorRotationCounterClockwise
        self.hasHorizontalFlip = hasHorizontalFlip
        self.hasVerticalFlip = hasVerticalFlip
        self.hasRotate = hasRotate
    }

    /// Control names as the descriptor lists them.
    public var names: [String] {
        (hasHorizontalFlip ? ["hflip"] : []) + (hasVerticalFlip ? ["vflip"] : []) + (hasRotate ? ["rotate"] : [])
    }
}
