import FoldcamCapture
import FoldcamCore
import FoldcamPlatform
import FoldcamVideo
import Dispatch

/// The `snapshot` method in simulate mode: the frame the virtual camera showed at a moment,
/// upright and unmirrored, as PNG. Synthetic cameras are drawn on demand rather than streamed,
/// so an idle simulated daemon does no work; a short history of source decisions says which
/// camera was showing (and how it was turned) at the requested moment. Encoding runs on a
/// worker queue; the reply returns to the event loop through a mailbox.
///
/// The PNG always comes back in the reply, base64-encoded: the daemon writes no file a client
/// names (docs/security.md). The client writes it with its own rights.
final class SnapshotService {
    struct Showing: Sendable {
        var time: UInt64
        var camera: Int?
        var rotation: Int
    }

    struct Job: Sendable {
        var sessionID: Int
        var requestID: JSONValue
        var cameraID: String
        var cameraIndex: Int
        var sensorRotation: Int
        var rotation: Int
        var mode: CameraMode
        var timestamp: UInt64
    }

    struct Completion: Sendable {
        var sessionID: Int
        var requestID: JSONValue
        var result: Result<JSONValue, WireProtocol.Failure>
    }

    /// How far back a snapshot may ask (DESIGN: a ring of 0.5 s).
    static let span: UInt64 = 500_000_000

    private var history: [Showing] = []
    /// When the producer runs, snapshots come from its ring of written frames.
    var producer: VirtualCameraProducer?
    let completions: Mailbox<Completion>
    private let queue = DispatchQueue(label: "foldcam.snapshot")

    init() throws(SystemCallError) {
        completions = try Mailbox()
    }

    /// Records what the virtual camera shows from now on.
    func record(camera: Int?, rotation: Int, at time: UInt64) {
        if let last = history.last, last.camera == camera, last.rotation == rotation { return }
        history.append(Showing(time: time, camera: camera, rotation: rotation))
        // Keep one entry older than the span: it says what was showing at the span's start.
        while history.count > 2 && history[1].time + Self.span < time { history.removeFirst() }
    }

    func showing(at time: UInt64) -> Showing? {
        history.last { $0.time <= time } ?? history.first
    }

    /// Starts a snapshot; the reply arrives later through `completions`.
    func start(_ request: WireProtocol.Request, params: Params, sessionID: Int, rig: Rig, plan: VirtualCameraPlan, now: UInt64) throws(WireProtocol.Failure) {
        if request.params["path"] != nil {
            throw params.failure("params.path: the daemon writes no file a client names; the PNG comes back in the reply (\"png\", base64) — write it yourself (foldcamctl snapshot OUT.png does)")
        }
        try params.refuseUnknown(["at"])
        var moment = now
        if let value = request.params["at"], value != .null {
            guard case let .int(at) = value, at >= 0 else {
                throw params.failure("params.at: expected a CLOCK_MONOTONIC timestamp in nanoseconds")
            }
            moment = UInt64(at)
            if moment > now + 50_000_000 { throw params.failure("params.at: \(at) is in the future (now is \(now))") }
            if moment + Self.span < now {
                throw WireProtocol.Failure(id: request.id, code: .unavailable, message: "no frame from \(at): the ring holds the last 0.5 s (now is \(now))")
            }
        }
        if let producer {
            guard let frame = producer.frame(nearest: moment) else {
                throw WireProtocol.Failure(id: request.id, code: .unavailable, message: "no frame near \(moment) in the last 0.5 s")
            }
            let mirrored = producer.configuration.mirror
            let requestID = request.id
            let completions = self.completions
            queue.async {
                // Ring frames are upright; undo a configured mirror: snapshots are never mirrored.
                let upright = mirrored ? FrameTransform.applied(.init(rotation: 0, mirror: true), to: frame) : frame
                completions.post(Completion(sessionID: sessionID, requestID: requestID, result: Self.encode(upright, requestID: requestID, rotation: nil)))
            }
            return
        }
        guard let mode = plan.format else {
            throw WireProtocol.Failure(id: request.id, code: .unavailable, message: "the virtual camera has no format (its cameras share no mode)")
        }
        guard let showing = showing(at: moment), let camera = showing.camera else {
            throw WireProtocol.Failure(id: request.id, code: .unavailable, message: "no camera was showing at that moment (see the readiness topic)")
        }
        let job = Job(
            sessionID: sessionID, requestID: request.id, cameraID: rig.cameras[camera].id, cameraIndex: camera,
            sensorRotation: rig.cameras[camera].sensorRotation, rotation: showing.rotation, mode: mode,
            timestamp: moment)
        let completions = self.completions
        queue.async { completions.post(Completion(sessionID: job.sessionID, requestID: job.requestID, result: Self.render(job))) }
    }

    private static func render(_ job: Job) -> Result<JSONValue, WireProtocol.Failure> {
        let format = PixelFormat(rawValue: job.mode.pixelFormat) ?? .nv12
        let raw = SyntheticFrames.cameraFrame(
            id: job.cameraID, index: job.cameraIndex, sensorRotation: job.sensorRotation, format: format,
            width: job.mode.width, height: job.mode.height, timestamp: job.timestamp)
        let upright = FrameTransform.applied(.init(rotation: job.rotation), to: raw)
        return encode(upright, requestID: job.requestID, rotation: job.rotation)
    }

    private static func encode(_ frame: VideoFrame, requestID: JSONValue, rotation: Int?) -> Result<JSONValue, WireProtocol.Failure> {
        let png: [UInt8]
        do {
            png = try PNGEncoder.encode(frame)
        } catch {
            return .failure(WireProtocol.Failure(id: requestID, code: .internalError, message: "\(error)"))
        }
        var members: [(String, JSONValue)] = [
            ("timestamp", .int(Int(frame.timestamp))), ("source", frame.source.map { .string($0) } ?? .null),
            ("width", .int(frame.width)), ("height", .int(frame.height)),
        ]
        if let rotation { members.append(("rotation", .int(rotation))) }
        members += [("mirrored", .bool(false)), ("bytes", .int(png.count))]
        members.append(("png", .string(Base64.encode(png))))
        return .success(.object(members))
    }
}
