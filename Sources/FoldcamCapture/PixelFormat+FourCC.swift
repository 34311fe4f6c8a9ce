import FoldcamV4L2
import FoldcamVideo

extension PixelFormat {
    /// The V4L2 code of a format the producer moves ("NV12", "YUYV": the same text).
    var fourCC: FourCC { FourCC(rawValue) }

    /// The format a V4L2 code names, when the producer handles it.
    init?(_ code: FourCC) {
        guard let text = code.text, let format = PixelFormat(rawValue: text) else { return nil }
        self = format
    }

    /// Bytes per line of the first plane: NV12's luma plane is one byte a pixel, YUYV two.
    func bytesPerLine(width: Int) -> Int {
        self == .nv12 ? width : width * 2
    }
}
