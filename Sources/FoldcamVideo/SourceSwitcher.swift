import FoldcamCore

/// The virtual camera's switching state machine. The decision core names the candidate cameras
/// (the viewed display's forward cameras in the pool, best first); this decides what the
/// producer does about it: keep the current source, open the next one (keeping the old one on
/// screen until the new one delivers), fall back when opening fails, or show the
/// "camera unavailable" frame. Pure: the producer performs the returned actions and reports back.
public struct SourceSwitcher: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Open and start streaming this camera (the current output keeps repeating meanwhile).
        case open(String)
        /// Stop streaming this camera and release it.
        case close(String)
        /// Frames from this camera now feed the output.
        case feed(String)
        /// Feed the generated "camera unavailable" frame.
        case feedUnavailable
    }

    public enum Phase: Sendable, Equatable {
        case noSource(Readiness.Reason)
        /// Opening the first source; nothing streamed yet.
        case starting(String)
        case streaming(String)
        /// `from` still feeds the output while `to` starts.
        case switching(from: String, to: String)
    }

    public private(set) var phase: Phase = .noSource(.noForwardCamera)
    private var candidates: [String] = []
    /// Cameras that failed to open since the candidates last changed (skipped until then).
    private var failed: Set<String> = []
    public private(set) var lastFailure: (camera: String, reason: Readiness.Reason)?

    public init() {}

    public static func == (a: SourceSwitcher, b: SourceSwitcher) -> Bool {
        a.phase == b.phase && a.candidates == b.candidates && a.failed == b.failed
    }

    public var readiness: Readiness {
        switch phase {
        case .streaming: return .ready
        case .starting, .switching: return .switching
        case let .noSource(reason): return .interrupted(reason)
        }
    }

    /// The camera whose frames feed the output now, if any.
    public var feeding: String? {
        switch phase {
        case let .streaming(camera), let .switching(camera, _): return camera
        default: return nil
        }
    }

    /// New candidates from the decision core (best first); `reason` says why there are none.
    public mutating func decide(candidates newCandidates: [String], noneBecause reason: Readiness.Reason = .noForwardCamera) -> [Action] {
        if newCandidates != candidates { failed.removeAll() }
        candidates = newCandidates
        return pursue(reason: reason)
    }

    /// The camera being opened delivered its first frame: it takes over the output.
    public mutating func firstFrame(from camera: String) -> [Action] {
        switch phase {
        case .starting(camera):
            phase = .streaming(camera)
            return [.feed(camera)]
        case let .switching(old, camera2) where camera2 == camera:
            phase = .streaming(camera)
            return [.feed(camera), .close(old)]
        default:
            return []  // a late frame from a camera we no longer want
        }
    }

    /// Opening or streaming `camera` failed (busy, vanished, no common mode): try the next.
    public mutating func failed(_ camera: String, reason: Readiness.Reason) -> [Action] {
        failed.insert(camera)
        lastFailure = (camera, reason)
        var actions: [Action] = []
        switch phase {
        case .starting(camera):
            phase = .noSource(reason)
            actions.append(.close(camera))
        case let .switching(old, camera2) where camera2 == camera:
            phase = .streaming(old)  // the old source stays
            actions.append(.close(camera))
        case .streaming(camera):
            phase = .noSource(reason)
            actions += [.close(camera), .feedUnavailable]
        case let .switching(camera2, target) where camera2 == camera:
            // The old source died while the new one starts: show "unavailable" until it delivers.
            phase = .starting(target)
            actions += [.close(camera), .feedUnavailable]
        default:
            return []
        }
        return actions + pursue(reason: reason)
    }

    private mutating func pursue(reason: Readiness.Reason) -> [Action] {
        let wanted = candidates.first { !failed.contains($0) }
        switch (phase, wanted) {
        case let (.streaming(current), wanted?) where current == wanted:
            return []
        case let (.streaming(current), wanted?):
            phase = .switching(from: current, to: wanted)
            return [.open(wanted)]
        case let (.streaming(current), nil):
            phase = .noSource(candidates.isEmpty ? reason : (lastFailure?.reason ?? reason))
            return [.close(current), .feedUnavailable]
        case let (.starting(current), wanted?) where current == wanted:
            return []
        case let (.starting(current), wanted):
            phase = wanted.map { .starting($0) } ?? .noSource(reason)
            return [.close(current)] + (wanted.map { [.open($0)] } ?? [.feedUnavailable])
        case let (.switching(old, target), wanted?) where target == wanted:
            _ = old
            return []
        case let (.switching(old, target), wanted?) where old == wanted:
            phase = .streaming(old)
            return [.close(target)]
        case let (.switching(old, target), wanted?):
            phase = .switching(from: old, to: wanted)
            return [.close(target), .open(wanted)]
        case let (.switching(old, target), nil):
            phase = .noSource(reason)
            return [.close(target), .close(old), .feedUnavailable]
        case let (.noSource, wanted?):
            phase = .starting(wanted)
            return [.open(wanted)]
        case (.noSource, nil):
            let newPhase = Phase.noSource(candidates.isEmpty ? reason : (lastFailure?.reason ?? reason))
            let changed = newPhase != phase
            phase = newPhase
            return changed ? [.feedUnavailable] : []
        }
    }
}
