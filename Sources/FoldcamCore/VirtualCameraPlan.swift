/// What a virtual camera can ever show, fixed for the daemon's life so readers never see a
/// format change: the pool of cameras behind it and the best mode they all support. A camera
/// following the viewed display pools the forward cameras of every followed display; one bound
/// to a display pools only that display's (docs/virtual-camera.md, "Several virtual cameras").
public struct VirtualCameraPlan: Sendable, Equatable {
    /// The display it shows the viewer of.
    public var follow: VirtualCameraFollow
    /// Camera indices, in rig order.
    public var pool: [Int]
    /// The best mode the pool shares that the output can take (`ModeChoice`); when none can
    /// be, the best shared one (the producer refuses it: unsupportedFormat); nil when they
    /// share none.
    public var format: CameraMode?
    /// How the mode was chosen among the shared ones, and why the others were not.
    public var modeChoice: ModeChoice
    /// True only when every pool camera delivers depth.
    public var depth: Bool

    public init(rig: Rig, follow: VirtualCameraFollow = .viewed, sink: SinkFormats = .producer) {
        self.follow = follow
        pool = VirtualCameraPlan.poolAndSamples(rig, follow: follow).pool
        let members = pool.map { rig.cameras[$0] }
        modeChoice = ModeChoice(members.map(\.modes), sink: sink)
        format = modeChoice.mode ?? VirtualCameraPlan.bestCommonMode(members.map(\.modes))
        depth = !members.isEmpty && members.allSatisfy(\.hasDepth)
    }

    /// The pixel format the output is written in: the mode's own, or what it is decoded into.
    public var outputPixelFormat: String? {
        if case let .decoded(into)? = modeChoice.verdict { return into }
        return format?.pixelFormat
    }

    /// Every camera forward (θ < 90°, not covered) for some followed, uncovered display at
    /// some of the hinge settings `HingeSamples` visits (a fixed budget, whatever the rig),
    /// except those the rig keeps out (`exclusion(of:in:)`: infrared ones by default).
    static func pool(_ rig: Rig) -> [Int] { poolAndSamples(rig).pool }

    /// Why camera `index` is never in any pool of `rig`, for people; nil when it may join.
    /// By id (`virtualCamera.exclude`) first, then by kind (`virtualCamera.excludeKinds`).
    public static func exclusion(of index: Int, in rig: Rig) -> String? {
        let camera = rig.cameras[index]
        if rig.virtualCamera.exclude.contains(index) { return "listed in virtualCamera.exclude" }
        guard let kind = camera.kinds.first(where: rig.virtualCamera.excludeKinds.contains) else { return nil }
        let rule = rig.virtualCamera.excludeKinds == VirtualCameraConfig.defaultExcludeKinds && kind == .infrared
            ? "kept out by default (virtualCamera.excludeKinds)" : "virtualCamera.excludeKinds has \(kind.rawValue)"
        return "\(kind.evidence(camera)); \(rule)"
    }

    /// The displays whose viewers the camera may show.
    static func displays(_ rig: Rig, follow: VirtualCameraFollow) -> [Int] {
        switch follow {
        case .viewed: rig.virtualCamera.follow
        case let .display(index): [index]
        }
    }

    /// The pool and how many hinge settings were looked at (stops once every camera is in).
    static func poolAndSamples(_ rig: Rig, follow: VirtualCameraFollow = .viewed) -> (pool: [Int], samples: Int) {
        let followed = displays(rig, follow: follow)
        // An excluded camera never joins: counted as in, left out of the result.
        let excluded = rig.cameras.indices.map { exclusion(of: $0, in: rig) != nil }
        var member = excluded
        var missing = member.filter { !$0 }.count
        let samples = HingeSamples.forEach(rig) { angles in
            let pose = RigPose(rig: rig, angles: angles)
            for display in followed {
                // A covered display has no viewer: it contributes nothing at this pose.
                guard !rig.displays[display].faces.contains(where: { pose.isCovered($0) }),
                      let normal = DirectionClassifier.viewingNormal(rig.displays[display], pose: pose) else { continue }
                for (index, camera) in rig.cameras.enumerated() where !member[index] && !pose.isCovered(camera.face) {
                    if pose.normal(camera.face).dot(normal) > 1e-9 {
                        member[index] = true
                        missing -= 1
                    }
                }
            }
            return missing > 0
        }
        return (member.indices.filter { member[$0] && !excluded[$0] }, samples)
    }

    /// Intersection by (pixel format, size); each size's rate is the lowest of the cameras'
    /// best rates. Best = largest area, then highest rate, then the first camera's format order.
    static func bestCommonMode(_ cameraModes: [[CameraMode]]) -> CameraMode? {
        guard let first = cameraModes.first else { return nil }
        var best: CameraMode?
        var bestRank = Int.max
        for (rank, mode) in first.enumerated() {
            let fps = ModeChoice.sharedRate(of: mode, in: cameraModes)
            guard fps > 0 else { continue }
            let candidate = CameraMode(pixelFormat: mode.pixelFormat, width: mode.width, height: mode.height, fps: fps)
            if let current = best {
                let area = candidate.width * candidate.height
                let currentArea = current.width * current.height
                let better = area > currentArea
                    || (area == currentArea && candidate.fps > current.fps)
                    || (area == currentArea && candidate.fps == current.fps && rank < bestRank)
                if !better { continue }
            }
            best = candidate
            bestRank = rank
        }
        return best
    }

    /// Whether the camera shows anyone now: a display-bound camera always follows its display;
    /// a viewed one only while the viewed display is among the rig's followed ones.
    func follows(rig: Rig, viewedDisplay: Int) -> Bool {
        follow != .viewed || rig.virtualCamera.follow.contains(viewedDisplay)
    }

    /// The source for the followed display (the viewed one, or the bound one): its first
    /// forward camera in the pool, after the preferred device types. Pins move the viewed
    /// display, so they steer only cameras that follow it.
    public func source(rig: Rig, state displays: [DisplayState], viewedDisplay: Int) -> VirtualCameraState {
        guard !pool.isEmpty else { return VirtualCameraState(source: nil, noSourceReason: .emptyPool) }
        guard follows(rig: rig, viewedDisplay: viewedDisplay) else {
            return VirtualCameraState(source: nil, noSourceReason: .displayNotFollowed)
        }
        guard let chosen = candidates(rig: rig, state: displays, viewedDisplay: viewedDisplay).first else {
            return VirtualCameraState(source: nil, noSourceReason: .noForwardCamera)
        }
        return VirtualCameraState(source: chosen, noSourceReason: nil)
    }

    /// Every camera that could feed the virtual camera now, best first: the followed display's
    /// forward cameras in the pool, preferred device types first, then by θ. The producer
    /// falls back along this list when opening a camera fails.
    public func candidates(rig: Rig, state displays: [DisplayState], viewedDisplay: Int) -> [Int] {
        guard follows(rig: rig, viewedDisplay: viewedDisplay) else { return [] }
        let forward = displays[follow.display(viewed: viewedDisplay)].forward.filter { pool.contains($0) }
        let preferred = rig.virtualCamera.preferDeviceTypes
        return forward.enumerated().sorted { lhs, rhs in
            let left = preferred.firstIndex(of: rig.cameras[lhs.element].deviceType) ?? preferred.count
            let right = preferred.firstIndex(of: rig.cameras[rhs.element].deviceType) ?? preferred.count
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
