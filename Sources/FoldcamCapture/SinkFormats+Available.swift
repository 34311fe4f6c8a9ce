import FoldcamCore

extension SinkFormats {
    /// What this process's producer can write: NV12 and YUYV as captured, and MJPG decoded into
    /// YUYV when libjpeg-turbo loads (`MJPEGDecoder`). Without it a webcam's MJPG-only modes are
    /// passed over for the best one it sends uncompressed.
    public static var available: SinkFormats {
        MJPEGDecoder.isAvailable ? SinkFormats(direct: producer.direct, decoded: ["MJPG": "YUYV"]) : producer
    }
}
