/// Generated frames: the simulated cameras (each its own colour, its id written in the frame,
/// an arrow marking where the sensor's mount puts the panel's top), and the frame shown when no
/// camera is available.
public enum SyntheticFrames {
    /// Distinct, saturated colours, picked by camera index.
    static let palette: [YUV] = [
        YUV(red: 200, green: 40, blue: 40), YUV(red: 40, green: 80, blue: 210), YUV(red: 30, green: 170, blue: 60),
        YUV(red: 220, green: 160, blue: 20), YUV(red: 150, green: 50, blue: 190), YUV(red: 20, green: 170, blue: 180),
        YUV(red: 230, green: 100, blue: 160), YUV(red: 120, green: 120, blue: 40),
    ]

    public static func colour(forCameraAt index: Int) -> YUV { palette[index % palette.count] }

    static let white = YUV(red: 255, green: 255, blue: 255)

    /// A raw frame from simulated camera `id`: turned by its `sensorRotation` like a real sensor.
    public static func cameraFrame(id: String, index: Int, sensorRotation: Int, format: PixelFormat, width: Int, height: Int, timestamp: UInt64) -> VideoFrame {
        var canvas = FrameCanvas(frame: VideoFrame(format: format, width: width, height: height, filledWith: colour(forCameraAt: index), timestamp: timestamp, source: id), turn: ((sensorRotation % 360) + 360) % 360)
        let (w, h) = canvas.uprightSize
        let scale = max(1, min(w / (max(1, id.count) * 6 + 4), h / 24))
        canvas.drawText(id, centreX: w / 2, centreY: h * 2 / 3, scale: scale, white)
        canvas.drawUpArrow(centreX: w / 2, top: h / 10, length: h * 2 / 5, thickness: max(2, w / 40), white)
        return canvas.frame
    }

    /// "camera unavailable": dark grey with the words, same format and size as the output.
    public static func unavailableFrame(format: PixelFormat, width: Int, height: Int, timestamp: UInt64) -> VideoFrame {
        placeholder("CAMERA UNAVAILABLE", background: YUV(red: 40, green: 40, blue: 40), ink: YUV(red: 200, green: 200, blue: 200), format: format, width: width, height: height, timestamp: timestamp)
    }

    /// "camera idle": what the loopback shows while nobody reads it and no camera runs; near
    /// black with the words, so a reader that opens sees at once that it is a placeholder.
    public static func idleFrame(format: PixelFormat, width: Int, height: Int, timestamp: UInt64) -> VideoFrame {
        placeholder("CAMERA IDLE", background: YUV(red: 16, green: 16, blue: 16), ink: YUV(red: 120, green: 120, blue: 120), format: format, width: width, height: height, timestamp: timestamp)
    }

    /// A frame that stands in for a camera: one colour with `text` centred, as large as fits.
    private static func placeholder(_ text: String, background: YUV, ink: YUV, format: PixelFormat, width: Int, height: Int, timestamp: UInt64) -> VideoFrame {
        var canvas = FrameCanvas(frame: VideoFrame(format: format, width: width, height: height, filledWith: background, timestamp: timestamp), turn: 0)
        let scale = max(1, min(width / (text.count * 6 + 4), height / 16))
        canvas.drawText(text, centreX: width / 2, centreY: height / 2, scale: scale, ink)
        return canvas.frame
    }
}
