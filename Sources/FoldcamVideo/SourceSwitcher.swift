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
    /// Why there are no candidates, as the decision core last said.
    private var noneReason: Readiness.Reason = .noForwardCamera
    /// Pre-warm: the camera opened ahead of a likely switch, and whether it already delivers.
    public private(set) var warming: String?
    private var warmReady = false
    public private(set) var lastFailure: (camera: String, reason: Readiness.Reason)?

    public init() {}

    public static func == (a: SourceSwitcher, b: SourceSwitcher) -> Bool {
        a.phase == b.phase && a.candidates == b.candidates && a.failed == b.failed && a.warming == b.warming && a.warmReady == b.warmReady
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
        noneReason = reason
        return pursue(reason: reason)
    }

    /// The cameras present changed (hotplug): the cameras that failed get another chance. A
    /// camera that comes back is often announced to the engine before its device node is known,
    /// so opening it failed; the candidates did not change since, so nothing else retries it.
    public mutating func retryFailed() -> [Action] {
        guard !failed.isEmpty else { return [] }
        failed.removeAll()
        return pursue(reason: noneReason)
    }

    /// Opens `camera` ahead of a switch the decision core expects soon (the hinge approaches a
    /// boundary), so that when the switch comes the new camera already streams and taking it
    /// over is immediate. nil cancels a pre-warm that is no longer expected.
    public mutating func prewarm(_ camera: String?) -> [Action] {
        guard camera != warming else { return [] }
        var actions: [Action] = []
        if let old = warming, !isInUse(old) { actions.append(.close(old)) }
        warming = nil
        warmReady = false
        guard let camera, !isInUse(camera), !failed.contains(camera) else { return actions }
        warming = camera
        return actions + [.open(camera)]
    }

    /// Feeding, or being opened to feed.
    private func isInUse(_ camera: String) -> Bool {
        switch phase {
        case let .streaming(current), let .starting(current): return current == camera
        case let .switching(from, to): return from == camera || to == camera
        case .noSource: return false
        }
    }

    /// The camera being opened delivered its first frame: it takes over the output.
    public mutating func firstFrame(from camera: String) -> [Action] {
        if camera == warming {
            warmReady = true
            return []
        }
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
        if camera == warming {
            // Two streams at once may be more than the hardware allows: switch the slow way.
            warming = nil
            warmReady = false
            return [.close(camera)]
        }
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
        if let wanted, wanted == warming, let actions = takeOverWarm(wanted) { return actions }
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

    /// The wanted camera is the pre-warmed one: it is already open (and maybe streaming).
    private mutating func takeOverWarm(_ camera: String) -> [Action]? {
        let ready = warmReady
        warming = nil
        warmReady = false
        switch phase {
        case let .streaming(current):
            guard ready else {
                phase = .switching(from: current, to: camera)
                return []
            }
            phase = .streaming(camera)
            return [.feed(camera), .close(current)]
        case .noSource:
            phase = ready ? .streaming(camera) : .starting(camera)
            return ready ? [.feed(camera)] : []
        case let .starting(current):
            phase = ready ? .streaming(camera) : .starting(camera)
            return [.close(current)] + (ready ? [.feed(camera)] : [])
        case let .switching(old, target):
            phase = ready ? .streaming(camera) : .switching(from: old, to: camera)
            return [.close(target)] + (ready ? [.feed(camera), .close(old)] : [])
        }
    }
}
