import FoldcamPlatform
import FoldcamV4L2
import FoldcamVideo

/// What the producer needs of a camera's stream, whatever delivers it: V4L2 (`CaptureStream`)
/// today, PipeWire or a test's fake as other conformances. A source is opened in one mode
/// (`CameraSourceOpener`), delivers frames in buffers of its own or in sink pages it was lent,
/// lends each one out until it is given back (`requeue`), and stops.
///
/// Not thread-safe: it belongs to one thread at a time (`CaptureStreamTransfer` hands it over).
protocol CameraSource: AnyObject {
    var camera: String { get }
    /// Unique in the process: what a buffer of it names (`DriverBuffer.stream`).
    var serial: UInt64 { get }
    /// Who the sink pages it captures into are lent to (the open's ticket); nil: its own buffers.
    var lender: UInt64? { get }
    /// How many buffers it has (the producer holds some for the snapshot ring when enough).
    var bufferCount: Int { get }
    /// Readable when a frame is ready, for poll(); negative when the source has none (it is then
    /// read at ticks only).
    var descriptor: Int32 { get }
    /// Turns the sensor by 180°; false when it cannot.
    func setFlipped(_ flipped: Bool) -> Bool
    /// The next frame, lent until `requeue`; nil when none is ready.
    func dequeue() throws(SystemCallError) -> (buffer: DriverBuffer, timestamp: UInt64)?
    /// Gives buffer `index` back to be filled again.
    func requeue(_ index: Int) throws(SystemCallError)
    /// Stops delivering; its buffers are invalid afterwards.
    func stop()
}

/// A source's mode: the producer's output mode, which every camera must deliver as it is.
struct StreamMode: Sendable, Equatable {
    var format: PixelFormat
    var width: Int
    var height: Int
    var fps: Double
    /// The camera delivers MJPG at this size, which the producer decodes into `format`.
    var capturesMJPG = false

    /// The pixel format asked of the camera.
    var captureFourCC: FourCC { capturesMJPG ? FourCC("MJPG") : format.fourCC }
}

/// Opens camera sources (on the setup thread: it may block for hundreds of milliseconds).
protocol CameraSourceOpener: Sendable {
    /// Opens `node` streaming `mode` into `bufferCount` buffers of its own, or into `lending`
    /// (the sink's pages) when given; a source that cannot use them throws.
    func open(camera: String, node: String, mode: StreamMode, bufferCount: UInt32, lending: LentPages?) throws(SystemCallError) -> any CameraSource
}

/// V4L2 cameras (`CaptureStream`).
struct V4L2CameraOpener: CameraSourceOpener {
    func open(camera: String, node: String, mode: StreamMode, bufferCount: UInt32, lending: LentPages?) throws(SystemCallError) -> any CameraSource {
        try CaptureStream(camera: camera, node: node, fourCC: mode.captureFourCC, width: mode.width, height: mode.height, fps: mode.fps, bufferCount: bufferCount, lending: lending)
    }
}

extension CaptureStream: CameraSource {}
