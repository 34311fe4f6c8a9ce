@testable import FoldcamCapture
import FoldcamV4L2
import FoldcamVideo
import Testing

/// The producer's formats and their V4L2 codes are one vocabulary.
@Suite struct PixelFormatCodeTests {
    @Test func theProducersFormatsAreTheKernelsCodes() {
        // V4L2_PIX_FMT_NV12 and V4L2_PIX_FMT_YUYV from <linux/videodev2.h>.
        #expect(PixelFormat.nv12.fourCC.rawValue == 0x3231_564E)
        #expect(PixelFormat.yuyv.fourCC.rawValue == 0x5659_5559)
        #expect(PixelFormat(FourCC.nv12) == .nv12)
        #expect(PixelFormat(FourCC("MJPG")) == nil)
    }

    @Test func loopbackFormatsPrintTheirCode() {
        #expect("\(LoopbackFormat(format: .nv12, width: 640, height: 480))" == "NV12 640x480")
        #expect(LoopbackFormat(fourCC: .yuyv, width: 2, height: 2) == LoopbackFormat(format: .yuyv, width: 2, height: 2))
    }
}
