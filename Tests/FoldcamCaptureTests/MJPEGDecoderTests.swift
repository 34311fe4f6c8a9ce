@testable import FoldcamCapture
import FoldcamPlatform
import FoldcamTestSupport
import FoldcamV4L2
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
    static func jpeg(pixelFormat: String, chromaRows: Int, in directory: TemporaryDirectory) throws -> [UInt8] {
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

    func decode(_ jpeg: [UInt8], width: Int = width, height: Int = height, with decoder: MJPEGDecoder? = nil) throws -> [UInt8] {
        let decoder = try decoder ?? MJPEGDecoder()
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
        let yuyv = try decode(try Self.jpeg(pixelFormat: pixelFormat, chromaRows: chromaRows, in: directory))
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

    /// libjpeg's "Corrupt JPEG data: N extraneous bytes before marker 0xd9", common from UVC
    /// cameras, is a warning on a whole frame: shown and counted, as ffmpeg shows it.
    @Test func aWholeFrameWithExtraneousBytesIsShownAndCounted() throws {
        let directory = try TemporaryDirectory()
        let clean = try Self.jpeg(pixelFormat: "yuvj422p", chromaRows: 32, in: directory)
        #expect(Array(clean.suffix(2)) == [0xFF, 0xD9])
        let damaged = Array(clean.dropLast(2)) + [UInt8](repeating: 0x5A, count: 37) + [0xFF, 0xD9, 0, 0, 0]
        let decoder = try MJPEGDecoder()
        let shown = try decode(damaged, with: decoder)
        #expect(shown == (try decode(clean)))
        #expect(decoder.recoveredFrames == 1)
        #expect(decoder.lastWarning?.contains("extraneous bytes") == true, "\(decoder.lastWarning ?? "no warning")")
    }

    @Test func aFrameOfAnotherSizeIsRefused() throws {
        let directory = try TemporaryDirectory()
        let frame = try Self.jpeg(pixelFormat: "yuvj422p", chromaRows: 32, in: directory)
        #expect(throws: MJPEGDecoder.Failure.wrongSize(width: 64, height: 32, expected: (32, 32))) { try decode(frame, width: 32, height: 32) }
    }

    @Test func aTruncatedOrForeignFrameIsRefusedNotDecoded() throws {
        let directory = try TemporaryDirectory()
        let frame = try Self.jpeg(pixelFormat: "yuvj422p", chromaRows: 32, in: directory)
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

/// The producer with a camera whose best shared mode is MJPG only: it asks the camera for MJPG
/// (one copy, no loopback pages) and writes the decoded frame, not the JPEG's bytes.
@Suite struct ProducerMJPGTests {
    typealias Producer = VirtualCameraProducerTests

    @Test func anMJPGCameraIsDecodedIntoTheOutput() throws {
        let directory = try TemporaryDirectory()
        let jpeg = try MJPEGDecoderTests.jpeg(pixelFormat: "yuvj422p", chromaRows: 32, in: directory)
        let sink = FakeWriteSink(), log = FakeCameraLog()
        let configuration = VirtualCameraProducer.Configuration(outputNode: nil, format: .yuyv, width: MJPEGDecoderTests.width, height: MJPEGDecoderTests.height,
                                                                fps: 50, decodesMJPG: true)
        #expect(configuration.forwarding == .copy)
        let producer = try VirtualCameraProducer(configuration: configuration, sink: sink, cameras: FakeMJPGOpener(jpeg: jpeg, log: log))
        producer.send(.open(camera: "webcam", source: .device(node: "/fake/0")))
        producer.send(.feed(camera: "webcam", rotation: 0))
        producer.start()
        var events = Producer.events(of: producer) { $0.contains(.firstFrame(camera: "webcam")) }
        events += Producer.events(of: producer) { _ in producer.stats.framesFromCameras > 10 }
        events += Producer.stop(producer)
        // The first sample written is the first strip's luma, decoded and in limited range
        // (a JPEG's first byte is 0xFF, the idle frame's near black).
        let luma = 16 + (MJPEGDecoderTests.strips[0].y * 219 + 127) / 255
        #expect(sink.written.withLock { $0.filter { abs(Int($0) - luma) <= 3 }.count } > 10)
        #expect(!sink.written.withLock { $0.contains(0xFF) })
        #expect(log.state.withLock { $0.opened.map(\.lent) } == [false])
        #expect(!events.contains { if case .failed = $0 { return true } else { return false } })
    }
}
