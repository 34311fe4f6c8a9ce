import CPNG
import FoldcamPlatform
import FoldcamVideo

/// Encodes frames as PNG through libpng's simplified API.
public enum PNGEncoder {
    public struct EncodingError: Error, CustomStringConvertible {
        public var description: String
    }

    /// 8-bit RGB PNG bytes of `frame` (converted from its YUV layout).
    public static func encode(_ frame: VideoFrame) throws(EncodingError) -> [UInt8] {
        let png: LibPNG
        do { png = try LibPNG.load() } catch { throw EncodingError(description: "\(error) (install the libpng16-16 package)") }
        var rgb = RGBConversion.rgb(of: frame)
        var image = png_image()
        image.version = png_uint_32(cpng_IMAGE_VERSION)
        image.width = png_uint_32(frame.width)
        image.height = png_uint_32(frame.height)
        image.format = png_uint_32(cpng_FORMAT_RGB)
        let stride = Int32(frame.width * 3)
        // First call measures, second writes.
        var size = 0
        let measured = rgb.withUnsafeMutableBytes { png.imageWriteToMemory(&image, nil, &size, 0, $0.baseAddress, stride, nil) }
        guard measured != 0, size > 0 else { throw EncodingError(description: "libpng: \(message(of: image))") }
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { destination in
            rgb.withUnsafeMutableBytes { png.imageWriteToMemory(&image, destination.baseAddress, &size, 0, $0.baseAddress, stride, nil) }
        }
        png.imageFree(&image)
        guard written != 0 else { throw EncodingError(description: "libpng: \(message(of: image))") }
        return Array(output.prefix(size))
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// YUV (BT.601 limited range) to packed RGB24, for encoders that want RGB.
public enum RGBConversion {
    public static func rgb(of frame: VideoFrame) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: frame.width * frame.height * 3)
        let w = frame.width
        frame.bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { rgb in
                for y in 0..<frame.height {
                    for x in 0..<w {
                        let luma: UInt8, u: UInt8, v: UInt8
                        switch frame.format {
                        case .nv12:
                            luma = input[y * w + x]
                            let chroma = w * frame.height + (y / 2) * w + (x & ~1)
                            u = input[chroma]
                            v = input[chroma + 1]
                        case .yuyv:
                            luma = input[(y * w + x) * 2]
                            let pair = (y * w + (x & ~1)) * 2
                            u = input[pair + 1]
                            v = input[pair + 3]
                        }
                        // Fixed-point BT.601 (the usual 8-bit coefficients ×256).
                        let c = 298 * (Int32(luma) - 16) + 128
                        let d = Int32(u) - 128
                        let e = Int32(v) - 128
                        let index = (y * w + x) * 3
                        rgb[index] = clamp((c + 409 * e) >> 8)
                        rgb[index + 1] = clamp((c - 100 * d - 208 * e) >> 8)
                        rgb[index + 2] = clamp((c + 516 * d) >> 8)
                    }
                }
            }
        }
        return output
    }

    @inline(__always)
    static func clamp(_ value: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(255, max(0, value))) }
}
