/// What the virtual camera's output (the loopback sink) can be fed: pixel formats written as
/// captured, and captured formats decoded into one of those. Plain data, so the plan stays pure;
/// `producer` is what FoldcamCapture's producer writes.
public struct SinkFormats: Sendable, Equatable {
    /// Written as captured, in this order of preference at equal size and rate.
    public var direct: [String]
    /// Captured format → the written format it is decoded into.
    public var decoded: [String: String]

    public init(direct: [String], decoded: [String: String] = [:]) {
        self.direct = direct
        self.decoded = decoded
    }

    /// NV12 and YUYV, as captured.
    public static let producer = SinkFormats(direct: ["NV12", "YUYV"])

    /// Whether `format` (a written one) carries this size: both subsample chroma across, NV12 down too.
    static func accepts(_ format: String, width: Int, height: Int) -> Bool {
        width > 0 && height > 0 && width % 2 == 0 && (format != "NV12" || height % 2 == 0)
    }
}

/// How the producer would put one shared mode into the sink.
public enum ModeVerdict: Sendable, Equatable {
    /// Written as captured.
    case direct
    /// Decoded into this written format.
    case decoded(into: String)
    /// Not writable, and why, for people.
    case refused(String)

    public var writable: Bool {
        if case .refused = self { return false }
        return true
    }
}

/// The virtual camera's mode among those its pool shares: the best one the sink can write
/// (largest area, then highest rate, then written as captured over decoded, then the first
/// camera's order), with the verdict on every other shared mode for `--check-config`.
public struct ModeChoice: Sendable, Equatable {
    public struct Candidate: Sendable, Equatable {
        public var mode: CameraMode
        public var verdict: ModeVerdict
    }

    /// Every mode the pool shares, in the first camera's order.
    public var shared: [Candidate]
    /// Index into `shared` of the chosen mode; nil when none can be written.
    public var chosen: Int?

    public var mode: CameraMode? { chosen.map { shared[$0].mode } }
    public var verdict: ModeVerdict? { chosen.map { shared[$0].verdict } }

    public init(_ cameraModes: [[CameraMode]], sink: SinkFormats) {
        shared = Self.sharedModes(cameraModes).map { Candidate(mode: $0, verdict: Self.verdict($0, sink: sink)) }
        var best: Int?
        for index in shared.indices where shared[index].verdict.writable {
            if let current = best, !Self.better(shared[index], than: shared[current]) { continue }
            best = index
        }
        chosen = best
    }

    static func verdict(_ mode: CameraMode, sink: SinkFormats) -> ModeVerdict {
        let written = sink.direct.contains(mode.pixelFormat) ? mode.pixelFormat : sink.decoded[mode.pixelFormat]
        guard let written else {
            let decodes = sink.decoded.keys.sorted()
            let decoding = decodes.isEmpty ? "decodes none" : "decodes \(decodes.joined(separator: ", "))"
            return .refused("the output writes \(sink.direct.joined(separator: " or ")) and \(decoding)")
        }
        guard SinkFormats.accepts(written, width: mode.width, height: mode.height) else {
            return .refused("\(written) needs an even width\(written == "NV12" ? " and height" : "")")
        }
        return written == mode.pixelFormat ? .direct : .decoded(into: written)
    }

    /// Larger, then faster, then not decoded; a tie keeps the earlier one.
    static func better(_ candidate: Candidate, than current: Candidate) -> Bool {
        let area = candidate.mode.width * candidate.mode.height
        let currentArea = current.mode.width * current.mode.height
        if area != currentArea { return area > currentArea }
        if candidate.mode.fps != current.mode.fps { return candidate.mode.fps > current.mode.fps }
        return candidate.verdict == .direct && current.verdict != .direct
    }

    /// Intersection by (pixel format, size), once each, in the first camera's order; each
    /// size's rate is the lowest of the cameras' best rates.
    /// The rate every camera can give `mode`'s format and size at: the lowest of their best
    /// rates, 0 when some camera lacks it.
    static func sharedRate(of mode: CameraMode, in cameraModes: [[CameraMode]]) -> Double {
        var fps = Double.infinity
        for modes in cameraModes {
            let rates = modes.filter { $0.pixelFormat == mode.pixelFormat && $0.width == mode.width && $0.height == mode.height }.map(\.fps)
            guard let top = rates.max() else { return 0 }
            fps = min(fps, top)
        }
        return fps
    }

    static func sharedModes(_ cameraModes: [[CameraMode]]) -> [CameraMode] {
        guard let first = cameraModes.first else { return [] }
        var result: [CameraMode] = []
        for mode in first where !result.contains(where: { $0.pixelFormat == mode.pixelFormat && $0.width == mode.width && $0.height == mode.height }) {
            let fps = Self.sharedRate(of: mode, in: cameraModes)
            if fps > 0 { result.append(CameraMode(pixelFormat: mode.pixelFormat, width: mode.width, height: mode.height, fps: fps)) }
        }
        return result
    }

    /// For people: the chosen mode and why, then why each better-looking one was not chosen.
    public var explanation: String {
        guard let chosen else {
            let refusals = shared.map { "\($0.mode) (\(Self.reason($0.verdict)))" }
            return "no mode the pool shares can be written: " + refusals.joined(separator: ", ")
        }
        let pick = shared[chosen]
        let how = pick.verdict == .direct ? "written as captured" : "decoded into \(Self.written(pick.verdict))"
        var text = "mode \(pick.mode), \(how): the largest and fastest mode the pool shares that the output can take"
        let notChosen = shared.indices.filter { $0 != chosen }
        let passedOver = notChosen.filter { Self.better(shared[$0], than: pick) || !shared[$0].verdict.writable }
        let lesser = notChosen.count - passedOver.count
        if !passedOver.isEmpty {
            text += "; not chosen: " + passedOver.map { "\(shared[$0].mode) (\(Self.reason(shared[$0].verdict)))" }.joined(separator: ", ")
        }
        if lesser > 0 { text += "; \(ClientText.counted(lesser, "smaller, slower or decoded mode")) passed over" }
        return text
    }

    static func written(_ verdict: ModeVerdict) -> String {
        if case let .decoded(into) = verdict { return into }
        return ""
    }

    static func reason(_ verdict: ModeVerdict) -> String {
        switch verdict {
        case .direct: return "written as captured"
        case let .decoded(into): return "decoded into \(into)"
        case let .refused(why): return why
        }
    }
}
