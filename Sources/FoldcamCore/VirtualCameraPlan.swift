/// What the virtual front camera can ever show, fixed for the daemon's life so readers never
/// see a format change: the pool of cameras behind it and the best mode they all support.
public struct VirtualCameraPlan: Sendable, Equatable {
    /// Camera indices, in rig order.
    public var pool: [Int]
    /// The best mode in the intersection of the pool's modes; nil when they share none.
    public var format: CameraMode?
    /// True only when every pool camera delivers depth.
    public var depth: Bool

    public init(rig: Rig) {
        pool = VirtualCameraPlan.pool(rig)
        let members = pool.map { rig.cameras[$0] }
        format = VirtualCameraPlan.bestCommonMode(members.map(\.modes))
        depth = !members.isEmpty && members.allSatisfy(\.hasDepth)
    }

    /// Every camera forward (θ < 90°, not covered) for some followed, uncovered display at
    /// some of the hinge settings `HingeSamples` visits (a fixed budget, whatever the rig).
    static func pool(_ rig: Rig) -> [Int] { poolAndSamples(rig).pool }

    /// The pool and how many hinge settings were looked at (stops once every camera is in).
    static func poolAndSamples(_ rig: Rig) -> (pool: [Int], samples: Int) {
        var member = [Bool](repeating: false, count: rig.cameras.count)
        var missing = rig.cameras.count
        let samples = HingeSamples.forEach(rig) { angles in
            let pose = RigPose(rig: rig, angles: angles)
            for display in rig.virtualCamera.follow {
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
        return (member.indices.filter { member[$0] }, samples)
    }

    /// Intersection by (pixel format, size); each size's rate is the lowest of the cameras'
    /// best rates. Best = largest area, then highest rate, then the first camera's format order.
    static func bestCommonMode(_ cameraModes: [[CameraMode]]) -> CameraMode? {
        guard let first = cameraModes.first else { return nil }
        var best: CameraMode?
        var bestRank = Int.max
        for (rank, mode) in first.enumerated() {
            var fps = Double.infinity
            for modes in cameraModes {
                let rates = modes.filter {
                    $0.pixelFormat == mode.pixelFormat && $0.width == mode.width && $0.height == mode.height
                }.map(\.fps)
                guard let top = rates.max() else {
                    fps = 0
                    break
                }
                fps = min(fps, top)
            }
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

    /// The source for the viewed display: its first forward camera in the pool, after the
    /// preferred device types.
    public func source(rig: Rig, state displays: [DisplayState], viewedDisplay: Int) -> VirtualCameraState {
        guard !pool.isEmpty else { return VirtualCameraState(source: nil, noSourceReason: .emptyPool) }
        guard rig.virtualCamera.follow.contains(viewedDisplay) else {
            return VirtualCameraState(source: nil, noSourceReason: .displayNotFollowed)
        }
        guard let chosen = candidates(rig: rig, state: displays, viewedDisplay: viewedDisplay).first else {
            return VirtualCameraState(source: nil, noSourceReason: .noForwardCamera)
        }
        return VirtualCameraState(source: chosen, noSourceReason: nil)
    }

    /// Every camera that could feed the virtual camera now, best first: the viewed display's
    /// forward cameras in the pool, preferred device types first, then by θ. The producer
    /// falls back along this list when opening a camera fails.
    public func candidates(rig: Rig, state displays: [DisplayState], viewedDisplay: Int) -> [Int] {
        guard rig.virtualCamera.follow.contains(viewedDisplay) else { return [] }
        let forward = displays[viewedDisplay].forward.filter { pool.contains($0) }
        let preferred = rig.virtualCamera.preferDeviceTypes
        return forward.enumerated().sorted { lhs, rhs in
            let left = preferred.firstIndex(of: rig.cameras[lhs.element].deviceType) ?? preferred.count
            let right = preferred.firstIndex(of: rig.cameras[rhs.element].deviceType) ?? preferred.count
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
