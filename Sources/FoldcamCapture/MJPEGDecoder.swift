import CTurboJPEG
import FoldcamPlatform

/// Decodes an MJPG camera's frames into YUYV, the loopback's format, for a virtual camera whose
/// best shared mode is MJPG only (docs/virtual-camera.md). libjpeg-turbo decodes to planar
/// Y'CbCr at the JPEG's own subsampling (no colour conversion); this packs the planes into
/// YUYV, taking JFIF's full-range samples to the limited range a YUYV reader expects.
/// One decoder per thread: it keeps its TurboJPEG handle and plane buffers.
public final class MJPEGDecoder {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// libturbojpeg.so.0 did not load (the package libturbojpeg0 is not installed).
        case unavailable(String)
        /// A frame that is not a JPEG TurboJPEG can read, with its message.
        case corrupt(String)
        /// A JPEG of another size than the mode's.
        case wrongSize(width: Int, height: Int, expected: (width: Int, height: Int))

        public static func == (lhs: Failure, rhs: Failure) -> Bool { lhs.description == rhs.description }

        public var description: String {
            switch self {
            case let .unavailable(reason): return "MJPG decoding needs libjpeg-turbo (apt-get install libturbojpeg0): \(reason)"
            case let .corrupt(message): return "a frame is not a readable JPEG: \(message)"
            case let .wrongSize(width, height, expected):
                return "a frame is \(width)x\(height), not the mode's \(expected.width)x\(expected.height)"
            }
        }
    }

    /// Whether libturbojpeg.so.0 loads here (looked up once for the process).
    public static var isAvailable: Bool { (try? LibTurboJPEG.load()) != nil }

    /// Frames decoded whole despite damaged data (libjpeg's "Corrupt JPEG data: N extraneous
    /// bytes before marker 0xd9" is common from UVC cameras): shown, as ffmpeg and browsers show
    /// them, and counted here with the last such warning.
    public private(set) var recoveredFrames = 0
    public private(set) var lastWarning: String?

    private let library: LibTurboJPEG
    private let handle: UnsafeMutableRawPointer
    /// Y, Cb and Cr planes of the last frame's size and subsampling.
    private var luma: [UInt8] = []
    private var blue: [UInt8] = []
    private var red: [UInt8] = []
    /// JFIF full range (0…255) to the limited range of BT.601 video: luma 16…235, chroma 16…240.
    private let lumaRange: [UInt8] = (0...255).map { UInt8(16 + ($0 * 219 + 127) / 255) }
    private let chromaRange: [UInt8] = (0...255).map { UInt8(16 + ($0 * 224 + 127) / 255) }

    public init() throws(Failure) {
        do {
            library = try LibTurboJPEG.load()
        } catch {
            throw .unavailable(error.description)
        }
        guard let handle = library.initDecompress() else { throw .unavailable("tjInitDecompress failed") }
        self.handle = handle
    }

    deinit { _ = library.destroy(handle) }

    /// Decodes `jpeg` (one frame as the camera delivered it) into `output`, YUYV of
    /// `width`×`height` (width even; `output` at least width × height × 2 bytes).
    public func decode(_ jpeg: UnsafeRawBufferPointer, width: Int, height: Int, into output: UnsafeMutableRawBufferPointer) throws(Failure) {
        precondition(width % 2 == 0 && output.count >= width * height * 2, "YUYV output too small")
        guard let base = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), !jpeg.isEmpty else { throw .corrupt("empty frame") }
        var jpegWidth: Int32 = 0, jpegHeight: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard library.decompressHeader3(handle, base, UInt(jpeg.count), &jpegWidth, &jpegHeight, &subsampling, &colourspace) == 0 else {
            throw .corrupt(message())
        }
        // A cut-off header can "succeed" with no size: no frame to decode.
        guard jpegWidth > 0, jpegHeight > 0 else { throw .corrupt("no frame size in its header (\(jpeg.count) bytes)") }
        guard Int(jpegWidth) == width, Int(jpegHeight) == height else {
            throw .wrongSize(width: Int(jpegWidth), height: Int(jpegHeight), expected: (width, height))
        }
        let components = subsampling == ctj_SAMP_GRAY ? 1 : 3
        var sizes: [(width: Int, height: Int)] = []
        for component in 0..<components {
            sizes.append((Int(library.planeWidth(Int32(component), jpegWidth, subsampling)), Int(library.planeHeight(Int32(component), jpegHeight, subsampling))))
        }
        func fit(_ plane: inout [UInt8], _ size: (width: Int, height: Int)?) {
            let count = size.map { $0.width * $0.height } ?? 1
            if plane.count != count { plane = [UInt8](repeating: 0, count: count) }
        }
        fit(&luma, sizes[0])
        fit(&blue, components > 1 ? sizes[1] : nil)
        fit(&red, components > 1 ? sizes[2] : nil)
        let status = luma.withUnsafeMutableBufferPointer { y in
            blue.withUnsafeMutableBufferPointer { cb in
                red.withUnsafeMutableBufferPointer { cr in
                    var pointers: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, cb.baseAddress, cr.baseAddress]
                    return library.decompressToYUVPlanes(handle, base, UInt(jpeg.count), &pointers, jpegWidth, nil, jpegHeight, 0)
                }
            }
        }
        if status != 0 {
            // A cut-off frame warns too (and is filled with grey): only a frame that still ends
            // with its end-of-image marker was decoded whole.
            guard library.errorCode(handle) == ctj_ERR_WARNING, Self.endsWithEndOfImage(jpeg) else { throw .corrupt(message()) }
            recoveredFrames += 1
            lastWarning = message()
        }
        let out = output.bindMemory(to: UInt8.self)
        if components == 1 {
            packGrey(width: width, height: height, into: out)
        } else {
            pack(width: width, height: height, chroma: sizes[1], into: out)
        }
    }

    /// Whether the frame's last bytes are JPEG's EOI marker (FF D9), past any zero padding a
    /// camera's driver leaves after it.
    static func endsWithEndOfImage(_ jpeg: UnsafeRawBufferPointer) -> Bool {
        var end = jpeg.count
        while end > 0 && jpeg[end - 1] == 0 { end -= 1 }
        return end >= 2 && jpeg[end - 2] == 0xFF && jpeg[end - 1] == 0xD9
    }

    /// Y0 Cb Y1 Cr per pixel pair; each output pixel pair takes the chroma sample under its
    /// first pixel (4:2:2 and 4:2:0 map exactly, rows of 4:2:0 chroma serve two lines).
    private func pack(width: Int, height: Int, chroma: (width: Int, height: Int), into out: UnsafeMutableBufferPointer<UInt8>) {
        let pairs = width / 2
        // Column of each pair's chroma sample; the common 4:2:2 and 4:2:0 have one per pair.
        let columns = (0..<pairs).map { $0 * 2 * chroma.width / width }
        luma.withUnsafeBufferPointer { y in
            blue.withUnsafeBufferPointer { cb in
                red.withUnsafeBufferPointer { cr in
                    lumaRange.withUnsafeBufferPointer { lumaTable in
                        chromaRange.withUnsafeBufferPointer { chromaTable in
                            for row in 0..<height {
                                let yRow = row * width
                                let cRow = (row * chroma.height / height) * chroma.width
                                var o = row * width * 2
                                for pair in 0..<pairs {
                                    let c = cRow + columns[pair]
                                    out[o] = lumaTable[Int(y[yRow + pair * 2])]
                                    out[o + 1] = chromaTable[Int(cb[c])]
                                    out[o + 2] = lumaTable[Int(y[yRow + pair * 2 + 1])]
                                    out[o + 3] = chromaTable[Int(cr[c])]
                                    o += 4
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// A greyscale JPEG: its luma, with neutral chroma.
    private func packGrey(width: Int, height: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        luma.withUnsafeBufferPointer { y in
            for index in 0..<(width * height) {
                out[index * 2] = lumaRange[Int(y[index])]
                out[index * 2 + 1] = 128
            }
        }
    }

    private func message() -> String {
        guard let text = library.errorString(handle) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }
}
