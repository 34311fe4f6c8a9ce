import FoldcamPlatform

/// The camera streams one producer has, and their starts and stops on the setup thread
/// (`CaptureStreamSetup`). Which stream to start, retire or keep is `ForwardingPolicy`'s call;
/// this carries it out. Streams are kept by camera and by serial, so a buffer let go finds its
/// stream with no search (`giveBack`), and a buffer of a stream already handed over to stop
/// finds none: stopping it reclaims its buffers.
///
/// Confined to the producer thread.
final class CameraStreams {
    private let setup: CaptureStreamSetup
    /// nil when the system refused the thread: requests then run on the producer thread.
    private var setupThread: OSThread?
    private var byCamera: [String: any CameraSource] = [:]
    private var bySerial: [UInt64: any CameraSource] = [:]

    init(setup: CaptureStreamSetup) {
        self.setup = setup
    }

    /// Starts the setup thread.
    func startSetupThread() throws(SystemCallError) {
        setupThread = try setup.start()
    }

    var results: Mailbox<CaptureStreamSetup.Result> { setup.results }

    subscript(camera: String) -> (any CameraSource)? { byCamera[camera] }

    /// Every stream by camera (for the poll set).
    var all: [String: any CameraSource] { byCamera }

    /// Asks the setup thread to open `node` for `camera`, into `lending` when given, else into
    /// `bufferCount` driver buffers when given (else the setup's count).
    func start(_ camera: String, node: String, ticket: UInt64, lending: LentPages?, bufferCount: UInt32? = nil) {
        submit(.open(camera: camera, node: node, ticket: ticket, lending: lending, bufferCount: bufferCount))
    }

    /// A stream that came back started is `camera`'s from now on.
    func adopt(_ camera: String, _ transfer: CaptureStreamTransfer) {
        byCamera[camera] = transfer.stream
        bySerial[transfer.stream.serial] = transfer.stream
    }

    /// Hands the camera's stream, if it has one, to the setup thread to stop; nothing here
    /// references it afterwards. `beforeHandover` runs first (the producer copies a frame of it
    /// still shown: the setup thread copies the ring's).
    func retire(_ camera: String, beforeHandover: (any CameraSource) -> Void) {
        guard let stream = byCamera.removeValue(forKey: camera) else { return }
        bySerial[stream.serial] = nil
        beforeHandover(stream)
        submit(.stop(CaptureStreamTransfer(stream: stream)))
    }

    /// Stops a stream that came back but is nobody's.
    func discard(_ transfer: CaptureStreamTransfer) {
        submit(.stop(transfer))
    }

    /// Gives buffers nothing holds any more back to their drivers. A failed QBUF is left to the
    /// next DQBUF or poll, which report a failing device (failing the camera here, inside its
    /// frame loop, would stop the stream under it).
    func giveBack(_ released: consuming ReleasedBuffers) {
        for buffer in released.take() {
            try? bySerial[buffer.stream]?.requeue(buffer.index)
        }
    }

    /// Ends the setup thread once every stream handed over has stopped; streams that started
    /// meanwhile are stopped here. Call after retiring every stream.
    func finish() {
        if let setupThread {
            setup.finish()
            setupThread.join()
        }
        for case let .opened(_, _, transfer, _) in setup.results.drain() { transfer.stream.stop() }
    }

    private func submit(_ request: CaptureStreamSetup.Request) {
        if setupThread != nil {
            setup.requests.post(request)
        } else {
            _ = setup.perform(request)
        }
    }
}
