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

    /// Throws `VideoDeviceError` for a failed call, `LoopbackError` when the device is in a state
    /// the producer cannot take over.
    init(node: String, format: PixelFormat, width: Int, height: Int, fps: Double) throws {
        self.node = node
        frameBytes = format.byteCount(width: width, height: height)
        let wanted = LoopbackFormat(format: format, width: width, height: height)
        var device = try LoopbackState.openForOutput(node)
        var negotiated = try Self.setFormat(wanted, on: device)
        if negotiated != wanted {
            // An earlier producer's format is kept (keep_format). Without readers, dropping the
            // keep and closing frees it; with readers it must stay, or they would see it change.
            LoopbackState.dropKeptFormat(device)
            device.close()
            device = try LoopbackState.openForOutput(node)
            negotiated = try Self.setFormat(wanted, on: device)
            guard negotiated == wanted else {
                throw LoopbackError(node: node, problem: "keeps \(negotiated) from an earlier producer while a reader has it open, and the virtual camera needs \(wanted); close the readers (or reload v4l2loopback), then restart foldcamd")
            }
        }
        self.device = device
        var parameters = v4l2_streamparm()
        parameters.type = cvs_BUF_TYPE_VIDEO_OUTPUT
        parameters.parm.output.timeperframe = v4l2_fract(numerator: 1000, denominator: UInt32((fps * 1000).rounded()))
        _ = try? device.control(UInt(cvs_VIDIOC_S_PARM), "VIDIOC_S_PARM (output)", &parameters)
        let controls = device.controlIDs()
        for (name, value) in [("keep_format", Int32(1)), ("sustain_framerate", 1)] {
            if let id = controls[name] { try? device.setControl(id, value, name: name) }
        }
    }

    /// S_FMT on the output side; returns what the driver settled on (v4l2loopback answers with
    /// the kept format, without an error, when one is already negotiated).
    private static func setFormat(_ wanted: LoopbackFormat, on device: VideoDeviceFile) throws(VideoDeviceError) -> LoopbackFormat {
        var requested = v4l2_format()
        requested.type = cvs_BUF_TYPE_VIDEO_OUTPUT
        requested.fmt.pix.width = UInt32(wanted.width)
        requested.fmt.pix.height = UInt32(wanted.height)
        requested.fmt.pix.pixelformat = wanted.fourCC
        requested.fmt.pix.field = cvs_FIELD_NONE
        requested.fmt.pix.bytesperline = UInt32(wanted.format == .nv12 ? wanted.width : wanted.width * 2)
        requested.fmt.pix.sizeimage = UInt32(wanted.format.byteCount(width: wanted.width, height: wanted.height))
        requested.fmt.pix.colorspace = cvs_COLORSPACE_SRGB
        try device.control(UInt(cvs_VIDIOC_S_FMT), "VIDIOC_S_FMT (output)", &requested)
        return LoopbackFormat(fourCC: requested.fmt.pix.pixelformat, width: Int(requested.fmt.pix.width), height: Int(requested.fmt.pix.height))
    }

    /// Finds the v4l2loopback device whose card label is `label` among /dev/video*, whatever
    /// side it offers now: after a producer exits, v4l2loopback may offer only capture (or
    /// nothing) until someone claims the output side again, which `init` does.
    public static func find(label: String) -> String? {
        guard let directory = opendir("/dev") else { return nil }
        defer { closedir(directory) }
        var nodes: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("video") { nodes.append("/dev/" + name) }
        }
        var matches: [(node: String, offersOutput: Bool)] = []
        for node in nodes.sorted() {
            guard let file = try? VideoDeviceFile(node: node, nonBlocking: true), let info = try? file.capabilities() else { continue }
            if info.driver == LoopbackState.driverName && info.card == label {
                matches.append((node, info.caps & cvs_CAP_VIDEO_OUTPUT != 0))
            }
        }
        return (matches.first { $0.offersOutput } ?? matches.first)?.node
    }

    /// Writes one whole frame (v4l2loopback takes frames through write()).
    func write(_ frame: VideoFrame) throws(VideoDeviceError) {
        // withUnsafeBytes throws untyped errors: the error is carried out as a value.
        let failure = frame.bytes.withUnsafeBytes { bytes -> VideoDeviceError? in
            do throws(VideoDeviceError) { try write(bytes) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes one whole frame straight from `bytes` (a held driver buffer, say): the kernel's
    /// copy into the loopback is the only one.
    func write(_ bytes: UnsafeRawBufferPointer) throws(VideoDeviceError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(device.fd, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw VideoDeviceError(node: node, call: "write", errno: errno)
            }
            offset += written
        }
    }
}

/// A loopback device the producer cannot take over, and what to do about it.
public struct LoopbackError: Error, Sendable, CustomStringConvertible {
    public var node: String
    public var problem: String
    public var description: String { "\(node): \(problem)" }
}

/// A loopback format as the driver reports it, for comparing and for messages.
struct LoopbackFormat: Equatable, CustomStringConvertible {
    var fourCC: UInt32
    var width: Int
    var height: Int

    init(fourCC: UInt32, width: Int, height: Int) {
        self.fourCC = fourCC
        self.width = width
        self.height = height
    }

    init(format: PixelFormat, width: Int, height: Int) {
        self.init(fourCC: format == .nv12 ? PixelFormatCode.nv12.rawValue : PixelFormatCode.yuyv.rawValue, width: width, height: height)
    }

    var format: PixelFormat { fourCC == PixelFormatCode.nv12.rawValue ? .nv12 : .yuyv }

    var description: String {
        let code = String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: fourCC >> ($0 * 8)) }, as: UTF8.self)
        return "\(code) \(width)x\(height)"
    }
}
