/// How long each switch of the virtual camera takes on the daemon's side: from the decision to
/// the moment the producer is told to feed the new camera, and how much of that the camera
/// itself spent between being opened and delivering its first frame. The producer writes the
/// fed camera's frame at its next tick, at most one frame interval later. Times are
/// CLOCK_MONOTONIC nanoseconds, passed in (this type reads no clock).
public struct SwitchTiming: Sendable {
    public struct Report: Sendable, Equatable {
        public var camera: String
        /// From the decision to the feed.
        public var decisionToFeed: UInt64
        /// From the camera's open to its first frame, when both were seen.
        public var cameraStart: UInt64?
        /// The camera was already streaming when the decision came (pre-warm).
        public var prewarmed: Bool

        public init(camera: String, decisionToFeed: UInt64, cameraStart: UInt64?, prewarmed: Bool) {
            self.camera = camera
            self.decisionToFeed = decisionToFeed
            self.cameraStart = cameraStart
            self.prewarmed = prewarmed
        }
    }

    private var decision: (camera: String, at: UInt64)?
    private var opened: [String: UInt64] = [:]
    private var firstFrames: [String: UInt64] = [:]

    public init() {}

    /// The wanted source changed to `camera` (nil: none).
    public mutating func decided(_ camera: String?, at time: UInt64) {
        decision = camera.map { ($0, time) }
    }

    public mutating func opened(_ camera: String, at time: UInt64) {
        opened[camera] = time
        firstFrames[camera] = nil
    }

    public mutating func firstFrame(_ camera: String, at time: UInt64) {
        if firstFrames[camera] == nil { firstFrames[camera] = time }
    }

    public mutating func closed(_ camera: String) {
        opened[camera] = nil
        firstFrames[camera] = nil
    }

    /// The producer is told to feed `camera`: the switch's figures, if a decision led to it.
    public mutating func fed(_ camera: String, at time: UInt64) -> Report? {
        guard let decision else { return nil }
        self.decision = nil
        let first = firstFrames[camera]
        let start = opened[camera].flatMap { open in first.map { $0 >= open ? $0 - open : 0 } }
        return Report(
            camera: camera, decisionToFeed: time >= decision.at ? time - decision.at : 0,
            cameraStart: start, prewarmed: first.map { $0 <= decision.at } ?? false)
    }
}
