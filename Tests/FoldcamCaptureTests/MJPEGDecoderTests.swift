@testable import FoldcamCapture
import FoldcamPlatform
import FoldcamTestSupport
import Testing

/// `MJPEGDecoder` (issue 27, item 2) on JPEGs ffmpeg makes at test time from known pixels, at
/// the subsamplings UVC cameras send (4:2:2, 4:2:0): every YUYV sample is checked.
@Suite struct MJPEGDecoderTests {
    static let width = 64, height = 32
    /// Four vertical strips, 16 pixels wide (whole JPEG blocks, so each block is flat), in
    /// full-range Y'CbCr as a JFIF file carries it.
    static let strips: [(y: Int, cb: Int, cr: Int)] = [(200, 90, 160), (60, 170, 100), (128, 128, 128), (100, 140, 60)]

    /// Planar full-range frame at `chromaRows` chroma rows (32: 4:2:2, 16: 4:2:0), made into a
    /// one-frame MJPG by ffmpeg.
    func jpeg(pixelFormat: String, chromaRows: Int, in directory: TemporaryDirectory) throws -> [UInt8] {
        var planes: [UInt8] = []
        for row in 0..<Self.height { for x in 0..<Self.width { planes.append(UInt8(Self.strips[x / 16].y)); _ = row } }
        for component in 0..<2 {
            for _ in 0..<chromaRows {
                for x in 0..<(Self.width / 2) { planes.append(UInt8(component == 0 ? Self.strips[x / 8].cb : Self.strips[x / 8].cr)) }
            }
        }
        try FileContents.replaceAtomically(planes, directory: directory.path, name: "frame.yuv")
        let ffmpeg = try ChildProcess(
            executable: "/usr/bin/ffmpeg",
            arguments: ["-nostdin", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", pixelFormat, "-s", "\(Self.width)x\(Self.height)",
                        "-i", directory.file("frame.yuv"), "-frames:v", "1", "-q:v", "2", "-f", "mjpeg", directory.file("frame.jpg")],
            stdoutPath: directory.file("ffmpeg.out"), stderrPath: directory.file("ffmpeg.err"))
        let code = ffmpeg.exitCode(timeout: .seconds(60))
        guard code == 0 else { throw HarnessError("ffmpeg failed (\(String(describing: code))): \(ffmpeg.stderr)") }
        return try FileContents.read(directory.file("frame.jpg"), limit: 1 << 20)
    }

    func decode(_ jpeg: [UInt8], width: Int = width, height: Int = height) throws -> [UInt8] {
        let decoder = try MJPEGDecoder()
        var output = [UInt8](repeating: 0, count: width * height * 2)
        var failure: MJPEGDecoder.Failure?
        jpeg.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                do throws(MJPEGDecoder.Failure) { try decoder.decode(input, width: width, height: height, into: out) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        return output
    }

    @Test(arguments: [("yuvj422p", 32), ("yuvj420p", 16)])
    func everyPixelComesOutInLimitedRangeYUYV(pixelFormat: String, chromaRows: Int) throws {
        let directory = try TemporaryDirectory()
        let yuyv = try decode(try jpeg(pixelFormat: pixelFormat, chromaRows: chromaRows, in: directory))
        func limited(_ value: Int, span: Int) -> Int { 16 + (value * span + 127) / 255 }
        var worst = 0
        for row in 0..<Self.height {
            for pair in 0..<(Self.width / 2) {
                let strip = Self.strips[pair * 2 / 16]
                let offset = (row * Self.width + pair * 2) * 2
                let expected = [limited(strip.y, span: 219), limited(strip.cb, span: 224), limited(strip.y, span: 219), limited(strip.cr, span: 224)]
                for index in 0..<4 { worst = max(worst, abs(Int(yuyv[offset + index]) - expected[index])) }
            }
        }
        // Flat 8x8 blocks survive JPEG at quality 2 within a step or two of rounding.
        #expect(worst <= 3, "largest sample error \(worst)")
    }

    @Test func aFrameOfAnotherSizeIsRefused() throws {
        let directory = try TemporaryDirectory()
        let frame = try jpeg(pixelFormat: "yuvj422p", chromaRows: 32, in: directory)
        #expect(throws: MJPEGDecoder.Failure.wrongSize(width: 64, height: 32, expected: (32, 32))) { try decode(frame, width: 32, height: 32) }
    }

    @Test func aTruncatedOrForeignFrameIsRefusedNotDecoded() throws {
        let directory = try TemporaryDirectory()
        let frame = try jpeg(pixelFormat: "yuvj422p", chromaRows: 32, in: directory)
        do {
            _ = try decode(Array("not a jpeg at all".utf8))
            Issue.record("text decoded as a JPEG")
        } catch {
            guard case .corrupt? = error as? MJPEGDecoder.Failure else { Issue.record("\(error)"); return }
        }
        for length in [20, frame.count / 2] {
            do {
                _ = try decode(Array(frame.prefix(length)))
                Issue.record("the first \(length) of \(frame.count) bytes decoded")
            } catch {
                guard case .corrupt? = error as? MJPEGDecoder.Failure else { Issue.record("\(length) bytes: \(error)"); continue }
            }
        }
    }
}
