/// Turning and mirroring frames, plane by plane. Loops run over typed buffers with plain index
/// arithmetic (which the compiler vectorizes), write into a destination the caller owns, and
/// allocate nothing per pixel.
public enum FrameTransform {
    /// Clockwise quarter turns and an optional horizontal mirror (applied after turning).
    public struct Operation: Sendable, Equatable {
        public var rotation: Int
        public var mirror: Bool

        public init(rotation: Int, mirror: Bool = false) {
            precondition(rotation % 90 == 0, "rotations are quarter turns")
            self.rotation = ((rotation % 360) + 360) % 360
            self.mirror = mirror
        }

        public static let identity = Operation(rotation: 0)

        /// Output size: quarter turns swap width and height.
        public func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
            rotation == 90 || rotation == 270 ? (height, width) : (width, height)
        }
    }

    /// Applies `operation` to `source`, writing into `destination` (resized as needed, so a
    /// reused destination allocates only when the size changes).
    public static func apply(_ operation: Operation, to source: VideoFrame, into destination: inout VideoFrame) {
        let size = operation.outputSize(width: source.width, height: source.height)
        let count = source.format.byteCount(width: size.width, height: size.height)
        if destination.bytes.count != count { destination.bytes = [UInt8](repeating: 0, count: count) }
        destination.format = source.format
        destination.width = size.width
        destination.height = size.height
        destination.timestamp = source.timestamp
        destination.source = source.source
        source.bytes.withUnsafeBufferPointer { input in
            destination.bytes.withUnsafeMutableBufferPointer { output in
                switch source.format {
                case .nv12: transformNV12(operation, input, output, width: source.width, height: source.height)
                case .yuyv: transformYUYV(operation, input, output, width: source.width, height: source.height)
                }
            }
        }
    }

    /// Applies `operation` to the raw bytes of a `width`×`height` frame (e.g. a driver's
    /// buffer) straight into `output`, which holds the turned frame: the one copy a frame takes.
    public static func apply(_ operation: Operation, format: PixelFormat, width: Int, height: Int, from input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) {
        let count = format.byteCount(width: width, height: height)
        precondition(input.count >= count && output.count >= count, "buffers smaller than the frame")
        let source = UnsafeBufferPointer(rebasing: input[0..<count])
        let destination = UnsafeMutableBufferPointer(rebasing: output[0..<count])
        switch format {
        case .nv12: transformNV12(operation, source, destination, width: width, height: height)
        case .yuyv: transformYUYV(operation, source, destination, width: width, height: height)
        }
    }

    /// Convenience returning a new frame.
    public static func applied(_ operation: Operation, to source: VideoFrame) -> VideoFrame {
        var destination = source
        apply(operation, to: source, into: &destination)
        return destination
    }

    // MARK: Planes

    /// Maps an output pixel (x, y) in a `w`×`h` output back to the source pixel it shows.
    @inline(__always)
    static func sourcePoint(_ x: Int, _ y: Int, _ operation: Operation, sourceWidth sw: Int, sourceHeight sh: Int) -> (Int, Int) {
        let (ow, _) = operation.outputSize(width: sw, height: sh)
        let mx = operation.mirror ? ow - 1 - x : x
        switch operation.rotation {
        case 90: return (y, sh - 1 - mx)
        case 180: return (sw - 1 - mx, sh - 1 - y)
        case 270: return (sw - 1 - y, mx)
        default: return (mx, y)
        }
    }

    /// One plane of `elementSize`-byte elements (1: luma, 2: interleaved UV).
    static func transformPlane<Element>(
        _ operation: Operation, _ input: UnsafeBufferPointer<Element>, _ output: UnsafeMutableBufferPointer<Element>,
        width: Int, height: Int
    ) {
        let (ow, oh) = operation.outputSize(width: width, height: height)
        if operation.rotation == 0 && !operation.mirror {
            _ = output.initialize(fromContentsOf: input)
            return
        }
        if operation.rotation == 180 && !operation.mirror {
            // The whole plane reversed.
            let last = input.count - 1
            for index in 0..<input.count { output[index] = input[last - index] }
            return
        }
        for y in 0..<oh {
            let row = y * ow
            for x in 0..<ow {
                let (sx, sy) = sourcePoint(x, y, operation, sourceWidth: width, sourceHeight: height)
                output[row + x] = input[sy * width + sx]
            }
        }
    }

    static func transformNV12(_ operation: Operation, _ input: UnsafeBufferPointer<UInt8>, _ output: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int) {
        let luma = width * height
        transformPlane(operation, UnsafeBufferPointer(rebasing: input[0..<luma]), UnsafeMutableBufferPointer(rebasing: output[0..<luma]), width: width, height: height)
        // The chroma plane is a (w/2)×(h/2) grid of UV pairs: move the pairs as 16-bit units.
        let pairs = (input.count - luma) / 2
        let chroma = UnsafeRawPointer(input.baseAddress! + luma).assumingMemoryBound(to: UInt16.self)
        let chromaOut = UnsafeMutableRawPointer(output.baseAddress! + luma).assumingMemoryBound(to: UInt16.self)
        transformPlane(operation, UnsafeBufferPointer(start: chroma, count: pairs), UnsafeMutableBufferPointer(start: chromaOut, count: pairs), width: width / 2, height: height / 2)
    }

    static func transformYUYV(_ operation: Operation, _ input: UnsafeBufferPointer<UInt8>, _ output: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int) {
        if operation.rotation == 0 && !operation.mirror {
            _ = output.initialize(fromContentsOf: input)
            return
        }
        let (ow, oh) = operation.outputSize(width: width, height: height)
        if operation.rotation == 180 && !operation.mirror {
            // Macropixels reversed, and Y0/Y1 swapped inside each.
            let pairs = input.count / 4
            for pair in 0..<pairs {
                let s = (pairs - 1 - pair) * 4
                let d = pair * 4
                output[d] = input[s + 2]
                output[d + 1] = input[s + 1]
                output[d + 2] = input[s]
                output[d + 3] = input[s + 3]
            }
            return
        }
        // General case: each output pixel takes its luma from its source pixel, each output
        // pair its chroma from the source pair holding its first pixel.
        for y in 0..<oh {
            for x in stride(from: 0, to: ow, by: 2) {
                let (sx0, sy0) = sourcePoint(x, y, operation, sourceWidth: width, sourceHeight: height)
                let (sx1, sy1) = sourcePoint(x + 1, y, operation, sourceWidth: width, sourceHeight: height)
                let s0 = (sy0 * width + sx0) * 2
                let s1 = (sy1 * width + sx1) * 2
                let pairStart = (sy0 * width + (sx0 & ~1)) * 2
                let d = (y * ow + x) * 2
                output[d] = input[s0]
                output[d + 1] = input[pairStart + 1]
                output[d + 2] = input[s1]
                output[d + 3] = input[pairStart + 3]
            }
        }
    }
}
