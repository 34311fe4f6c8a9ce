import FoldcamV4L2

/// Asks one V4L2 node everything the classifier needs: capabilities, formats with sizes and
/// rates, and the orientation, rotation and flip controls. Blocking: runs on the device thread
/// (or in `foldcamd --probe`), never on the daemon's event loop.
public enum V4L2Prober {
    /// Largest frame side foldcam believes (16K); anything bigger is a garbage answer.
    static let maximumSide = 16384

    public static func probe(node: String) throws(DeviceError) -> V4L2Answers {
        if isSubdevice(node) { return try probeSubdevice(node: node) }
        let device = try V4L2Device.forProbing(node)
        let capability = try device.capability()
        var answers = V4L2Answers(capability: capability)
        // Only capture nodes have formats worth listing; the classifier skips the rest.
        let flags = capability.nodeCapabilities
        guard flags.contains(.videoCapture) || flags.contains(.videoCaptureMultiplanar) else { return answers }
        let bufferType: V4L2BufferType = flags.contains(.videoCapture) ? .videoCapture : .videoCaptureMultiplanar
        var emulated = 0
        answers.formats = try formats(device, bufferType: bufferType, emulated: &emulated)
        answers.onlyEmulatedFormats = answers.formats.isEmpty && emulated > 0
        answers.controls = try controls(device)
        if answers.controls.orientation == nil, answers.controls.sensorRotationCounterClockwise == nil {
            answers.linkedSensor = linkedSensor(device)
        }
        return answers
    }

    /// `/dev/v4l-subdevN`: a sensor's (or bridge's) sub-device. It has no capture capabilities
    /// and answers no VIDIOC_QUERYCAP, but on IPU-class machines the sensor's orientation and
    /// rotation controls are here, not on a video node.
    public static func isSubdevice(_ node: String) -> Bool {
        node.split(separator: "/").last?.hasPrefix("v4l-subdev") == true
    }

    /// A sub-device's orientation and rotation controls (kernel ioctls: libv4l2 is for capture
    /// nodes); its capability is empty, so no classifier mistakes it for a camera.
    static func probeSubdevice(node: String) throws(DeviceError) -> V4L2Answers {
        let device: V4L2Device
        do { device = try V4L2Device(node: node, access: .kernel, nonBlocking: true) } catch { throw .failed(error) }
        defer { device.close() }
        return V4L2Answers(capability: V4L2Capability(driver: "", card: "", busInfo: "", nodeCapabilities: []), controls: try controls(device))
    }

    static func formats(_ device: V4L2Device, bufferType: V4L2BufferType, emulated: inout Int) throws(DeviceError) -> [V4L2Format] {
        var formats: [V4L2Format] = []
        for (code, description) in try device.enumerateFormats(of: bufferType, emulated: &emulated) {
            guard code.text != nil else {
                throw .garbage(device: device.node, call: "VIDIOC_ENUM_FMT", what: "pixel format \(code) is not a fourcc")
            }
            let fourcc = code
            var sizes: [V4L2FrameSize] = []
            for (width, height) in try device.enumerateFrameSizes(fourcc: code) {
                guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
                    throw .garbage(device: device.node, call: "VIDIOC_ENUM_FRAMESIZES", what: "\(fourcc) size \(width)x\(height)")
                }
                let intervals = try device.enumerateFrameIntervals(fourcc: code, width: width, height: height)
                sizes.append(V4L2FrameSize(width: width, height: height, maximumFPS: try maximumFPS(intervals, device: device, what: "\(fourcc) \(width)x\(height)")))
            }
            formats.append(V4L2Format(fourcc: fourcc, description: description, sizes: sizes))
        }
        return formats
    }

    /// The highest rate among intervals (seconds as fractions); a zero part is garbage.
    static func maximumFPS(_ intervals: [(numerator: UInt32, denominator: UInt32)], device: V4L2Device, what: String) throws(DeviceError) -> Double? {
        var best: Double?
        for (numerator, denominator) in intervals {
            guard numerator > 0, denominator > 0 else {
                throw .garbage(device: device.node, call: "VIDIOC_ENUM_FRAMEINTERVALS", what: "\(what) interval \(numerator)/\(denominator)")
            }
            let fps = (Double(denominator) / Double(numerator) * 100).rounded() / 100
            best = max(best ?? 0, fps)
        }
        return best
    }

    static func controls(_ device: V4L2Device) throws(DeviceError) -> V4L2Controls {
        V4L2Controls(
            orientation: try device.probeValue(of: .cameraOrientation),
            sensorRotationCounterClockwise: try device.probeValue(of: .cameraSensorRotation),
            hasHorizontalFlip: try device.probe(.horizontalFlip),
            hasVerticalFlip: try device.probe(.verticalFlip),
            hasRotate: try device.probe(.rotate))
    }
}
