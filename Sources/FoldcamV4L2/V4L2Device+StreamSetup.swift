import CV4L2
import FoldcamPlatform

/// A single-plane frame layout as the driver settled on it (VIDIOC_S_FMT's answer).
package struct V4L2FrameLayout: Equatable, Sendable {
    package let fourCC: FourCC
    package let width: Int
    package let height: Int
    package let bytesPerLine: Int
    package let frameBytes: Int
}

/// Setting a streaming mode, typed by the queue's direction; and the few constants the
/// streaming side needs, so its callers need no C.
extension V4L2Device {
    /// VIDIOC_S_FMT on `direction`'s side, progressive; `bytesPerLine`, `frameBytes` and `sRGB`
    /// for an output, whose writer states them. Returns what the driver settled on (it may
    /// differ from the request without an error).
    package func setFormat<Direction: V4L2QueueDirection>(_ direction: Direction.Type, fourCC: FourCC, width: Int, height: Int,
                                                         bytesPerLine: Int? = nil, frameBytes: Int? = nil, sRGB: Bool = false) throws(SystemCallError) -> V4L2FrameLayout {
        var requested = v4l2_format()
        requested.type = Direction.bufferType
        requested.fmt.pix.width = UInt32(width)
        requested.fmt.pix.height = UInt32(height)
        requested.fmt.pix.pixelformat = fourCC.rawValue
        requested.fmt.pix.field = cv4l2_FIELD_NONE
        if let bytesPerLine { requested.fmt.pix.bytesperline = UInt32(bytesPerLine) }
        if let frameBytes { requested.fmt.pix.sizeimage = UInt32(frameBytes) }
        if sRGB { requested.fmt.pix.colorspace = cv4l2_COLORSPACE_SRGB }
        try control(cv4l2_VIDIOC_S_FMT, "VIDIOC_S_FMT(\(Direction.name))", &requested)
        let pix = requested.fmt.pix
        return V4L2FrameLayout(fourCC: FourCC(rawValue: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
                               bytesPerLine: Int(pix.bytesperline), frameBytes: Int(pix.sizeimage))
    }

    /// VIDIOC_S_PARM: `fps` frames a second on `direction`'s side (the driver may keep its own).
    package func setFrameRate<Direction: V4L2QueueDirection>(_ direction: Direction.Type, fps: Double) throws(SystemCallError) {
        var parameters = v4l2_streamparm()
        parameters.type = Direction.bufferType
        let interval = v4l2_fract(numerator: 1000, denominator: UInt32((fps * 1000).rounded()))
        if Direction.bufferType == cv4l2_BUF_TYPE_VIDEO_OUTPUT {
            parameters.parm.output.timeperframe = interval
        } else {
            parameters.parm.capture.timeperframe = interval
        }
        try control(cv4l2_VIDIOC_S_PARM, "VIDIOC_S_PARM(\(Direction.name))", &parameters)
    }

    /// Whether the sensor can flip itself both ways (V4L2_CID_HFLIP and V4L2_CID_VFLIP).
    package func canFlip() -> Bool {
        ((try? has(.horizontalFlip)) ?? false) && ((try? has(.verticalFlip)) ?? false)
    }

    /// Sets both flip controls: a 180° turn by the sensor.
    package func setFlipped(_ flipped: Bool) throws(SystemCallError) {
        try set(.horizontalFlip, to: flipped ? 1 : 0)
        try set(.verticalFlip, to: flipped ? 1 : 0)
    }

    /// `V4L2_CAP_VIDEO_OUTPUT`, in `identity().capabilities`.
    package static var outputCapability: UInt32 { cv4l2_CAP_VIDEO_OUTPUT }

    /// `V4L2_EVENT_PRIVATE_START`: where drivers' own event types begin.
    package static var privateEventStart: UInt32 { cv4l2_EVENT_PRIVATE_START }
}
