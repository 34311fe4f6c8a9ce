import CVideoStreaming
import FoldcamVideo
import Glibc

/// The v4l2loopback device the virtual camera writes to. Its format is set once and kept for
/// the producer's whole life, so readers never see a format change; the module is told to keep
/// that format and sustain the frame rate between producers.
public final class LoopbackOutput {
    private let device: VideoDeviceFile
    let node: String
    let frameBytes: Int

    init(node: String, format: PixelFormat, width: Int, height: Int, fps: Double) throws(VideoDeviceError) {
        self.node = node
        device = try VideoDeviceFile(node: node, nonBlocking: false)
        let code = format == .nv12 ? PixelFormatCode.nv12.rawValue : PixelFormatCode.yuyv.rawValue
        frameBytes = format.byteCount(width: width, height: height)
        var requested = v4l2_format()
        requested.type = cvs_BUF_TYPE_VIDEO_OUTPUT
        requested.fmt.pix.width = UInt32(width)
        requested.fmt.pix.height = UInt32(height)
        requested.fmt.pix.pixelformat = code
        requested.fmt.pix.field = cvs_FIELD_NONE
        requested.fmt.pix.bytesperline = UInt32(format == .nv12 ? width : width * 2)
        requested.fmt.pix.sizeimage = UInt32(frameBytes)
        requested.fmt.pix.colorspace = cvs_COLORSPACE_SRGB
        try device.control(UInt(cvs_VIDIOC_S_FMT), "VIDIOC_S_FMT (output)", &requested)
        var parameters = v4l2_streamparm()
        parameters.type = cvs_BUF_TYPE_VIDEO_OUTPUT
        parameters.parm.output.timeperframe = v4l2_fract(numerator: 1000, denominator: UInt32((fps * 1000).rounded()))
        _ = try? device.control(UInt(cvs_VIDIOC_S_PARM), "VIDIOC_S_PARM (output)", &parameters)
        let controls = device.controlIDs()
        for (name, value) in [("keep_format", Int32(1)), ("sustain_framerate", 1)] {
            if let id = controls[name] { try? device.setControl(id, value, name: name) }
        }
    }

    /// Finds the loopback output device whose card label is `label` among /dev/video*.
    public static func find(label: String) -> String? {
        guard let directory = opendir("/dev") else { return nil }
        defer { closedir(directory) }
        var nodes: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("video") { nodes.append("/dev/" + name) }
        }
        for node in nodes.sorted() {
            guard let file = try? VideoDeviceFile(node: node, nonBlocking: true), let info = try? file.capabilities() else { continue }
            if info.card == label && info.caps & cvs_CAP_VIDEO_OUTPUT != 0 { return node }
        }
        return nil
    }

    /// Writes one whole frame (v4l2loopback takes frames through write()).
    func write(_ frame: VideoFrame) throws(VideoDeviceError) {
        var offset = 0
        while offset < frame.bytes.count {
            let written = frame.bytes.withUnsafeBytes { Glibc.write(device.fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw VideoDeviceError(node: node, call: "write", errno: errno)
            }
            offset += written
        }
    }
}
