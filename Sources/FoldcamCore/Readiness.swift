/// Whether a capture can start now (docs/virtual-camera.md, "Readiness"), so a kiosk
/// can disable its shutter button while the camera changes.
public enum Readiness: Sendable, Equatable {
    public enum Reason: String, Sendable {
        case busy, unplugged, occluded, noForwardCamera, error
        /// Hardware mode, virtual camera: no v4l2loopback node to write to (none has the
        /// configured card label, or loopbackDevice is not one).
        case noLoopback
        /// The pool's cameras share no mode, so the virtual camera has no format.
        case noCommonFormat
        /// The pool's common mode is not one the producer writes (NV12, YUYV).
        case unsupportedFormat
        /// The loopback could not be opened or written to; the journal names the call.
        case outputFailed
    }

    case ready
    case switching
    case interrupted(Reason)
    /// Nobody reads the virtual camera: no camera runs (the loopback shows its idle frame).
    case idle
    case stopped

    /// Readiness from the decision alone (no producer): ready with a source, else interrupted
    /// with the most specific reason the viewed display's cameras give.
    public static func derived(from state: FoldState) -> Readiness {
        derived(from: state, source: state.virtualCamera, display: state.viewedDisplay)
    }

    /// The same for a virtual camera that follows `display` and decided `source`.
    public static func derived(from state: FoldState, source: VirtualCameraState, display: Int) -> Readiness {
        if source.source != nil { return .ready }
        let viewed = state.displays[display]
        let reasons = state.cameras.indices.compactMap { index -> UnavailableReason? in
            guard viewed.pairs[index] == nil else { return nil }
            return state.cameras[index].unavailable
        }
        for (reason, mapped) in [(UnavailableReason.busy, Reason.busy), (.unplugged, .unplugged), (.occluded, .occluded)] where reasons.contains(reason) {
            return .interrupted(mapped)
        }
        return .interrupted(.noForwardCamera)
    }

    public var json: JSONValue {
        switch self {
        case .ready: return .object([("state", .string("ready"))])
        case .switching: return .object([("state", .string("switching"))])
        case let .interrupted(reason): return .object([("state", .string("interrupted")), ("reason", .string(reason.rawValue))])
        case .idle: return .object([("state", .string("idle"))])
        case .stopped: return .object([("state", .string("stopped"))])
        }
    }
}
