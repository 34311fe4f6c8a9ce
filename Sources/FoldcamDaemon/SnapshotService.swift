import FoldcamCapture
import FoldcamCore
import FoldcamPlatform
import FoldcamVideo
import Synchronization

/// The `snapshot` method in simulate mode: the frame the virtual camera showed at a moment,
/// upright and unmirrored, as PNG. Synthetic cameras are drawn on demand rather than streamed,
/// so an idle simulated daemon does no work; a short history of source decisions says which
/// camera was showing (and how it was turned) at the requested moment. Encoding runs on a
/// worker thread; the reply returns to the event loop through a mailbox.
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

    /// How far back a snapshot may ask: frames are kept for 0.5 s (docs/protocol.md, `snapshot`).
    static let span: UInt64 = 500_000_000

    /// Snapshots one client may have in progress, and all clients together; beyond them a
    /// request gets `busy` at once instead of queueing work nobody bounded.
    static let perClient = 2
    static let total = 8

    private var history: [Showing] = []
    /// Requests in progress, by client (event loop only).
    private var inProgress: [Int: [JSONValue]] = [:]
    private var inProgressCount = 0
    /// Clients that left with snapshots in progress: the worker skips their jobs.
    private let departed = DepartedClients()
    /// When the producer runs, snapshots come from its ring of written frames.
    var producer: VirtualCameraProducer?
    /// The virtual camera's controller: a snapshot while nobody watches starts the camera.
    weak var camera: VirtualCameraController?
    /// Frames to skip after the camera starts for a snapshot, while its exposure settles.
    var settleFrames = 5
    /// How long a snapshot waits for a started camera's settled frame before giving up.
    static let startLimit: UInt64 = 10_000_000_000
    let completions: Mailbox<Completion>
    /// Wakes the event loop once per output frame while snapshots wait for a started camera.
    let waitTimer: Timer
    /// Draws and encodes off the loop, one snapshot at a time.
    private let worker: Worker

    /// A snapshot that started the camera: answered once the producer has written
    /// `settleFrames` + 1 camera frames since `baseline`.
    private struct Waiting {
        var sessionID: Int
        var requestID: JSONValue
        var baseline: Int
        var deadline: UInt64
    }
    private var waiting: [Waiting] = []

    /// The loop this service's handlers are registered on (`watch`), until `stop`.
    private weak var loop: EventLoop?

    init() throws(SystemCallError) {
        completions = try Mailbox()
        waitTimer = try Timer()
        worker = try Worker(name: "foldcam-snapshot")
    }

    /// Registers the wait timer and the finished snapshots on the loop; each finished one is
    /// answered through `server`. `stop` unregisters them.
    func watch(on loop: EventLoop, answering server: ControlServer) throws(SystemCallError) {
        self.loop = loop
        try loop.register(waitTimer.descriptor) { [unowned self] _ in self.checkWaiting() }
        try loop.register(completions.descriptor) { [unowned self, unowned server] _ in
            for completion in self.finished() {
                server.completeDeferred(sessionID: completion.sessionID, requestID: completion.requestID, result: completion.result)
            }
        }
    }

    /// At shutdown: the loop lets go of this service's handlers; the encodes under way finish
    /// (the server answers their requests `stopped`).
    func stop() {
        worker.stop()
        waitTimer.cancel()
        guard let loop else { return }
        loop.unregister(waitTimer.descriptor)
        loop.unregister(completions.descriptor)
        self.loop = nil
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
        let mine = inProgress[sessionID]?.count ?? 0
        if mine >= Self.perClient || inProgressCount >= Self.total {
            let which = mine >= Self.perClient ? "you already have \(mine) snapshots in progress (at most \(Self.perClient) per client)" : "\(inProgressCount) snapshots are in progress (at most \(Self.total) at once)"
            throw WireProtocol.Failure(id: request.id, code: .busy, message: "\(which); wait for a reply, then ask again")
        }
        var moment = now
        if let value = request.params["at"], value != .null {
            guard case let .int(at) = value, at >= 0 else {
                throw params.failure("params.at: expected a CLOCK_MONOTONIC timestamp in nanoseconds")
            }
            moment = UInt64(at)
            if moment > now + 50_000_000 { throw params.failure("params.at: \(at) is in the future (now is \(now))") }
            if moment + Self.span < now {
                // Idle, the ring keeps nothing from cameras at all: say that, it is what to fix.
                if producer != nil, let camera, !camera.demand.running { throw Self.idleFailure(request.id, moment: moment) }
                throw WireProtocol.Failure(id: request.id, code: .unavailable, message: "no frame from \(at): the ring holds the last 0.5 s (now is \(now))")
            }
        }
        if let producer {
            let explicit = request.params["at"].map { $0 != .null } ?? false
            if let camera, !explicit, !camera.demand.running || camera.demand.snapshots > 0 {
                // Nobody watches, so no camera runs: start one for this snapshot.
                began(sessionID: sessionID, requestID: request.id)
                waiting.append(Waiting(sessionID: sessionID, requestID: request.id, baseline: producer.stats.framesFromCameras, deadline: now + Self.startLimit))
                camera.snapshotBegan()
                let period = Duration.nanoseconds(Int64(1e9 / producer.configuration.fps))
                if waiting.count == 1 { try? waitTimer.schedule(after: period, repeating: period) }
                return
            }
            let found = producer.frame(nearest: moment)
            if found?.source == nil, let camera, !camera.demand.running { throw Self.idleFailure(request.id, moment: moment) }
            guard let frame = found else {
                throw WireProtocol.Failure(id: request.id, code: .unavailable, message: "no frame near \(moment) in the last 0.5 s")
            }
            // The "camera unavailable" card is the loopback's placeholder, not a picture: no
            // camera gave it, so it is not a snapshot.
            guard frame.source != nil else {
                throw WireProtocol.Failure(id: request.id, code: .unavailable, message: "no camera was showing at that moment (the virtual camera showed its 'camera unavailable' frame; see the readiness topic)")
            }
            began(sessionID: sessionID, requestID: request.id)
            encodeLater(frame, mirrored: producer.configuration.mirror, sessionID: sessionID, requestID: request.id)
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
        let departed = self.departed
        began(sessionID: sessionID, requestID: request.id)
        worker.submit {
            // A client that left no longer needs its frame drawn.
            let gone = departed.ids.withLock { $0.contains(job.sessionID) }
            let result = gone ? .failure(WireProtocol.Failure(id: job.requestID, code: .stopped, message: "client left")) : Self.render(job)
            completions.post(Completion(sessionID: job.sessionID, requestID: job.requestID, result: result))
        }
    }

    /// A snapshot of a past moment while nobody reads the virtual camera: no camera ran.
    static func idleFailure(_ id: JSONValue, moment: UInt64) -> WireProtocol.Failure {
        WireProtocol.Failure(id: id, code: .unavailable, message: "no frame of \(moment): the virtual camera was idle then (nobody was reading it, so no camera ran and no frame was kept); ask without \"at\" to start the camera and take one now")
    }

    /// Encodes a ring frame on the worker; the reply comes back through `completions`.
    private func encodeLater(_ frame: VideoFrame, mirrored: Bool, sessionID: Int, requestID: JSONValue) {
        let completions = self.completions
        let departed = self.departed
        worker.submit {
            if departed.ids.withLock({ $0.contains(sessionID) }) {
                return completions.post(Completion(sessionID: sessionID, requestID: requestID, result: .failure(WireProtocol.Failure(id: requestID, code: .stopped, message: "client left"))))
            }
            // Ring frames are upright; undo a configured mirror: snapshots are never mirrored.
            let upright = mirrored ? FrameTransform.applied(.init(rotation: 0, mirror: true), to: frame) : frame
            completions.post(Completion(sessionID: sessionID, requestID: requestID, result: Self.encode(upright, requestID: requestID, rotation: nil)))
        }
    }

    /// `waitTimer` fired: answers the snapshots whose camera has delivered its settled frame,
    /// gives up on those past their limit, and lets the camera stop when none waits.
    func checkWaiting() {
        _ = waitTimer.acknowledge()
        guard let producer else { return }
        let now = MonotonicClock.nanoseconds
        let written = producer.stats.framesFromCameras
        // No camera could start (all busy, unplugged, failing): say so now rather than at the limit.
        var failedReason: Readiness.Reason?
        if case let .interrupted(reason) = camera?.readiness { failedReason = reason }
        var still: [Waiting] = []
        for entry in waiting {
            if written > entry.baseline + settleFrames, let frame = producer.frame(nearest: now), frame.source != nil {
                encodeLater(frame, mirrored: producer.configuration.mirror, sessionID: entry.sessionID, requestID: entry.requestID)
            } else if let failedReason {
                let message = "no camera could be started for this snapshot (readiness interrupted: \(failedReason.rawValue); see the daemon's journal)"
                completions.post(Completion(sessionID: entry.sessionID, requestID: entry.requestID, result: .failure(WireProtocol.Failure(id: entry.requestID, code: .unavailable, message: message))))
            } else if now >= entry.deadline {
                let message = "the camera started for this snapshot gave \(max(0, written - entry.baseline)) of the \(settleFrames + 1) frames needed within \(Self.startLimit / 1_000_000_000) s (see the readiness topic and the daemon's journal)"
                completions.post(Completion(sessionID: entry.sessionID, requestID: entry.requestID, result: .failure(WireProtocol.Failure(id: entry.requestID, code: .unavailable, message: message))))
            } else {
                still.append(entry)
                continue
            }
            camera?.snapshotEnded()
        }
        waiting = still
        if waiting.isEmpty { waitTimer.cancel() }
    }

    private func began(sessionID: Int, requestID: JSONValue) {
        inProgress[sessionID, default: []].append(requestID)
        inProgressCount += 1
    }

    /// The finished snapshots, to be answered (event loop only). A snapshot whose client left
    /// is dropped here.
    func finished() -> [Completion] {
        var answers: [Completion] = []
        for completion in completions.drain() {
            guard var requests = inProgress[completion.sessionID], let index = requests.firstIndex(of: completion.requestID) else { continue }
            requests.remove(at: index)
            inProgressCount -= 1
            inProgress[completion.sessionID] = requests.isEmpty ? nil : requests
            if requests.isEmpty { departed.ids.withLock { _ = $0.remove(completion.sessionID) } }
            answers.append(completion)
        }
        return answers
    }

    /// A client left: its snapshots still queued are skipped by the worker.
    func clientLeft(sessionID: Int) {
        guard inProgress[sessionID] != nil else { return }
        departed.ids.withLock { _ = $0.insert(sessionID) }
    }

    /// At shutdown: every snapshot not yet answered, forgotten here (the caller answers them).
    func abandonAll() -> [(sessionID: Int, requestID: JSONValue)] {
        let all = inProgress.flatMap { entry in entry.value.map { (sessionID: entry.key, requestID: $0) } }
        inProgress.removeAll()
        inProgressCount = 0
        return all
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

/// Ids of clients that left, shared with the snapshot worker.
final class DepartedClients: Sendable {
    let ids = Mutex<Set<Int>>([])
}
