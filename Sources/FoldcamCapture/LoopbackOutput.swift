import FoldcamPlatform
import FoldcamV4L2
import FoldcamVideo

/// The v4l2loopback device the virtual camera writes to. Its format is set once and kept for
/// the producer's whole life, so readers never see a format change; the module is told to keep
/// that format and sustain the frame rate between producers. (FoldcamDevices' `LoopbackLocator`
/// finds the node through udev.)
public final class LoopbackOutput {
    /// Internal for `MappedLoopback`, the zero-copy path's seam: it maps this device's output
    /// buffers, after which frames are queued there rather than write()n here.
    let device: V4L2Device
    let node: String
    let frameBytes: Int
    let bytesPerLine: Int

    /// Throws `SystemCallError` for a failed call, `LoopbackError` when the device is in a state
    /// the producer cannot take over.
    init(node: String, format: PixelFormat, width: Int, height: Int, fps: Double) throws {
        self.node = node
        frameBytes = format.byteCount(width: width, height: height)
        bytesPerLine = format.bytesPerLine(width: width)
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
        try? device.setFrameRate(V4L2Output.self, fps: fps)
        let controls = device.controlIDs()
        for (name, value) in [("keep_format", Int32(1)), ("sustain_framerate", 1)] {
            if let id = controls[name] { try? device.setControl(id, value, name: name) }
        }
    }

    /// S_FMT on the output side; returns what the driver settled on (v4l2loopback answers with
    /// the kept format, without an error, when one is already negotiated).
    private static func setFormat(_ wanted: LoopbackFormat, on device: V4L2Device) throws(SystemCallError) -> LoopbackFormat {
        let settled = try device.setFormat(V4L2Output.self, fourCC: wanted.fourCC, width: wanted.width, height: wanted.height,
                                           bytesPerLine: wanted.format.bytesPerLine(width: wanted.width),
                                           frameBytes: wanted.format.byteCount(width: wanted.width, height: wanted.height), sRGB: true)
        return LoopbackFormat(fourCC: settled.fourCC, width: settled.width, height: settled.height)
    }

    /// Writes one whole frame (v4l2loopback takes frames through write()).
    func write(_ frame: VideoFrame) throws(SystemCallError) {
        // withUnsafeBytes throws untyped errors: the error is carried out as a value.
        let failure = frame.bytes.withUnsafeBytes { bytes -> SystemCallError? in
            do throws(SystemCallError) { try write(bytes) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes one whole frame straight from `bytes` (a held driver buffer, say): the kernel's
    /// copy into the loopback is the only one.
    func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        try device.write(bytes)
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
    var fourCC: FourCC
    var width: Int
    var height: Int

    init(fourCC: FourCC, width: Int, height: Int) {
        self.fourCC = fourCC
        self.width = width
        self.height = height
    }

    init(format: PixelFormat, width: Int, height: Int) {
        self.init(fourCC: format.fourCC, width: width, height: height)
    }

    /// The producer's formats are NV12 and YUYV; anything else was set by another producer and
    /// only ever compared and printed.
    var format: PixelFormat { PixelFormat(fourCC) ?? .yuyv }

    var description: String { "\(fourCC) \(width)x\(height)" }
}
