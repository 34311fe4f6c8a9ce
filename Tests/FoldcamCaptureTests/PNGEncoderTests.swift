import FoldcamCapture
import FoldcamVideo
import Foundation
import Testing

@Suite struct PNGEncoderTests {
    @Test func encodesAValidPNGOfTheFrame() throws {
        let frame = VideoFrame(format: .nv12, width: 64, height: 48, filledWith: YUV(red: 200, green: 40, blue: 40))
        let png = try PNGEncoder.encode(frame)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: width and height, big-endian, right after the signature and chunk header.
        #expect(Array(png[16..<24]) == [0, 0, 0, 64, 0, 0, 0, 48])
        // Decode it back with an independent decoder when python3 has one (zlib is stdlib).
        let pixel = try Self.firstPixel(png)
        #expect(abs(Int(pixel.0) - 200) <= 3 && abs(Int(pixel.1) - 40) <= 3 && abs(Int(pixel.2) - 40) <= 3)
    }

    @Test func yuyvConvertsLikeNV12() {
        let colour = YUV(red: 30, green: 170, blue: 60)
        let a = RGBConversion.rgb(of: VideoFrame(format: .nv12, width: 4, height: 2, filledWith: colour))
        let b = RGBConversion.rgb(of: VideoFrame(format: .yuyv, width: 4, height: 2, filledWith: colour))
        #expect(a == b)
        #expect(abs(Int(a[0]) - 30) <= 3 && abs(Int(a[1]) - 170) <= 3 && abs(Int(a[2]) - 60) <= 3)
    }

    /// The first pixel of a PNG, via Python's zlib (a decoder that is not ours).
    static func firstPixel(_ png: [UInt8]) throws -> (UInt8, UInt8, UInt8) {
        let path = NSTemporaryDirectory() + "foldcam-test-\(getpid()).png"
        try Data(png).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = """
            import sys, zlib, struct
            d = open(sys.argv[1], 'rb').read()
            i, idat = 8, b''
            while i < len(d):
                n, = struct.unpack('>I', d[i:i+4]); t = d[i+4:i+8]
                if t == b'IDAT': idat += d[i+8:i+8+n]
                i += 12 + n
            raw = zlib.decompress(idat)
            assert raw[0] in (0, 1, 2, 3, 4)
            print(raw[1], raw[2], raw[3])
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { UInt8($0) }
        guard parts.count == 3 else { throw CocoaError(.fileReadCorruptFile) }
        return (parts[0], parts[1], parts[2])
    }
}
