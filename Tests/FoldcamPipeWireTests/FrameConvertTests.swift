import CFrameConvert
import FoldcamVideo
import Testing

/// The companion's one copy (CFrameConvert): YUYV copied as it is; RGB and BGR converted to
/// BT.601 limited-range YUYV as FoldcamVideo's YUV computes it, each pair's chroma from the mean
/// of its two pixels, rows read and written at their own strides.
@Suite struct FrameConvertTests {
    /// `pixels` (red, green, blue) as one row of `layout`, padded to `stride`.
    static func row(_ pixels: [(UInt8, UInt8, UInt8)], _ layout: ffc_layout, stride: Int) -> [UInt8] {
        var bytes = pixels.flatMap { layout == FFC_BGR24 ? [$0.2, $0.1, $0.0] : [$0.0, $0.1, $0.2] }
        bytes += [UInt8](repeating: 0xEE, count: stride - bytes.count)
        return bytes
    }

    static func convert(_ source: [UInt8], _ layout: ffc_layout, fromStride: Int, fromWidth: Int? = nil, width: Int, rows: Int, toStride: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0xAA, count: toStride * rows)
        source.withUnsafeBufferPointer { from in
            out.withUnsafeMutableBufferPointer { to in
                ffc_to_yuyv(layout, from.baseAddress, fromStride, UInt32(fromWidth ?? width), to.baseAddress, toStride, UInt32(width), UInt32(rows))
            }
        }
        return out
    }

    /// Within 1 of FoldcamVideo's rounding (the fixed-point coefficients).
    static func near(_ a: UInt8, _ b: UInt8) -> Bool { abs(Int(a) - Int(b)) <= 1 }

    @Test(arguments: [FFC_RGB24, FFC_BGR24])
    func solidColoursMatchFoldcamVideo(layout: ffc_layout) {
        let colours: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0), (128, 64, 200)]
        for colour in colours {
            let source = Self.row([colour, colour], layout, stride: 6)
            let out = Self.convert(source, layout, fromStride: 6, width: 2, rows: 1, toStride: 4)
            let want = YUV(red: colour.0, green: colour.1, blue: colour.2)
            #expect(Self.near(out[0], want.y) && Self.near(out[2], want.y), "Y of \(colour): \(out[0]), \(out[2]), want \(want.y)")
            #expect(Self.near(out[1], want.u), "U of \(colour): \(out[1]), want \(want.u)")
            #expect(Self.near(out[3], want.v), "V of \(colour): \(out[3]), want \(want.v)")
        }
    }

    @Test func chromaIsThePairsMeanAndLumaEachPixels() {
        // Red then blue: each keeps its own Y, the pair shares the mean of their U and of their V.
        let source = Self.row([(255, 0, 0), (0, 0, 255)], FFC_RGB24, stride: 6)
        let out = Self.convert(source, FFC_RGB24, fromStride: 6, width: 2, rows: 1, toStride: 4)
        let red = YUV(red: 255, green: 0, blue: 0), blue = YUV(red: 0, green: 0, blue: 255)
        #expect(Self.near(out[0], red.y) && Self.near(out[2], blue.y))
        #expect(Self.near(out[1], UInt8((Int(red.u) + Int(blue.u)) / 2)))
        #expect(Self.near(out[3], UInt8((Int(red.v) + Int(blue.v)) / 2)))
    }

    @Test func stridesArePaddingNeitherReadNorWritten() {
        // Two rows of four pixels, source rows padded to 16 bytes, output rows to 12: the padding
        // of the output keeps its bytes, and the source's padding (0xEE) shows nowhere.
        let first = Self.row([(255, 0, 0), (255, 0, 0), (0, 255, 0), (0, 255, 0)], FFC_RGB24, stride: 16)
        let second = Self.row([(0, 0, 255), (0, 0, 255), (255, 255, 255), (255, 255, 255)], FFC_RGB24, stride: 16)
        let out = Self.convert(first + second, FFC_RGB24, fromStride: 16, width: 4, rows: 2, toStride: 12)
        #expect(Array(out[8..<12]) == [0xAA, 0xAA, 0xAA, 0xAA])
        #expect(Array(out[20..<24]) == [0xAA, 0xAA, 0xAA, 0xAA])
        #expect(Self.near(out[4], YUV(red: 0, green: 255, blue: 0).y))
        #expect(Self.near(out[12], YUV(red: 0, green: 0, blue: 255).y))
        #expect(Self.near(out[19], YUV(red: 255, green: 255, blue: 255).v))
    }

    @Test func yuyvIsCopiedAsItIs() {
        let source: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 0xEE, 0xEE, 9, 10, 11, 12, 13, 14, 15, 16, 0xEE, 0xEE]
        let padded = Self.convert(source, FFC_YUYV, fromStride: 10, width: 4, rows: 2, toStride: 8)
        #expect(padded == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])
        let same = Self.convert(Array(source[0..<8]) + Array(source[10..<18]), FFC_YUYV, fromStride: 8, width: 4, rows: 2, toStride: 8)
        #expect(same == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])
    }

    /// libcamera's vimc delivers 636 pixels a row where 640 were negotiated: they fill the left
    /// of each row, the rest is black, and nothing past the source's row is read.
    @Test func aNarrowerSourceFillsTheLeftAndTheRestIsBlack() {
        let blue = YUV(red: 0, green: 0, blue: 255)
        let source = Self.row([(0, 0, 255), (0, 0, 255)], FFC_RGB24, stride: 6) + Self.row([(0, 0, 255), (0, 0, 255)], FFC_RGB24, stride: 6)
        let out = Self.convert(source, FFC_RGB24, fromStride: 6, fromWidth: 2, width: 6, rows: 2, toStride: 12)
        for row in 0..<2 {
            #expect(Self.near(out[row * 12], blue.y) && Self.near(out[row * 12 + 1], blue.u) && Self.near(out[row * 12 + 3], blue.v))
            #expect(Array(out[(row * 12 + 4)..<(row * 12 + 12)]) == [16, 128, 16, 128, 16, 128, 16, 128])
        }
        let yuyv = Self.convert([1, 2, 3, 4, 5, 6, 7, 8], FFC_YUYV, fromStride: 8, fromWidth: 4, width: 6, rows: 1, toStride: 12)
        #expect(yuyv == [1, 2, 3, 4, 5, 6, 7, 8, 16, 128, 16, 128])
    }

    @Test func blackRows() {
        var out = [UInt8](repeating: 0xAA, count: 2 * 10)
        out.withUnsafeMutableBufferPointer { ffc_black_yuyv($0.baseAddress, 10, 4, 2) }
        #expect(out == [16, 128, 16, 128, 16, 128, 16, 128, 0xAA, 0xAA, 16, 128, 16, 128, 16, 128, 16, 128, 0xAA, 0xAA])
    }

    @Test func bytesPerPixel() {
        #expect(ffc_bytes_per_pixel(FFC_YUYV) == 2)
        #expect(ffc_bytes_per_pixel(FFC_RGB24) == 3)
        #expect(ffc_bytes_per_pixel(FFC_BGR24) == 3)
    }
}
