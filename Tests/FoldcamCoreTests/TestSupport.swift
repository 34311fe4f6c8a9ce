import FoldcamCore

/// Loads a built-in rig; the presets must always decode.
func preset(_ id: String) throws -> Rig {
    guard let rig = try RigPresets.rig(id) else { throw TestFailure("no preset \(id)") }
    return rig
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// An engine plus id-based helpers, so tests read like docs/model.md and docs/rigs.md.
struct Harness {
    var engine: FoldEngine
    var rig: Rig { engine.rig }
    var state: FoldState { engine.state }

    init(_ id: String) throws {
        engine = FoldEngine(rig: try preset(id))
    }

    init(rig: Rig) {
        engine = FoldEngine(rig: rig)
    }

    @discardableResult
    mutating func hinge(_ id: String, _ degrees: Double) -> FoldUpdate {
        engine.apply(.hingeAngle(hinge: rig.hingeIndex(id)!, degrees: degrees))
    }

    @discardableResult
    mutating func apply(_ event: InputEvent) -> FoldUpdate { engine.apply(event) }

    func forward(_ display: String) -> [String] {
        state.displays[rig.displayIndex(display)!].forward.map { rig.cameras[$0].id }
    }

    func backward(_ display: String) -> [String] {
        state.displays[rig.displayIndex(display)!].backward.map { rig.cameras[$0].id }
    }

    func occluded(_ display: String) -> Bool { state.displays[rig.displayIndex(display)!].occluded }

    func pair(_ display: String, _ camera: String) -> PairDecision? {
        state.displays[rig.displayIndex(display)!].pairs[rig.cameraIndex(camera)!]
    }

    func camera(_ id: String) -> CameraState { state.cameras[rig.cameraIndex(id)!] }

    var posture: String { rig.postures[state.posture].id }
    var viewed: String { rig.displays[state.viewedDisplay].id }
    var source: String? { state.virtualCamera.source.map { rig.cameras[$0].id } }
    var hingeAngle: Double { state.hingeAngles[0] }
}

/// A small deterministic generator (SplitMix64) so property tests replay exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
