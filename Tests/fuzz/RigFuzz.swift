// The rig decoder and validator (`RigDecoder.decode`), one of the targets of Tests/fuzz/run.
//
// Invariants: decoding never traps and is bounded (the run's -timeout and -malloc_limit_mb);
// a refused rig names its problems (capped); an accepted rig is within every published limit,
// its virtual camera plan stays within the sample budget, and its initial state encodes to
// JSON that parses back to itself with only finite numbers.

func fuzzRig(_ bytes: [UInt8]) {
    guard let text = text(bytes) else { return }
    let rig: Rig
    do {
        rig = try RigDecoder.decode(json: text)
    } catch {
        checkErrors(error, "rig")
        return
    }
    check(rig.panels.count <= RigLimits.panels, "accepted \(rig.panels.count) panels")
    check(rig.hinges.count == rig.panels.count - 1, "\(rig.hinges.count) hinges for \(rig.panels.count) panels")
    check(rig.displays.count <= RigLimits.displays, "accepted \(rig.displays.count) displays")
    check(rig.cameras.count <= RigLimits.cameras, "accepted \(rig.cameras.count) cameras")
    check(rig.postures.count <= RigLimits.postures, "accepted \(rig.postures.count) postures")
    for camera in rig.cameras { check(camera.modes.count <= RigLimits.modesPerCamera, "camera \(camera.id): \(camera.modes.count) modes") }
    // Validation guarantees exact coverage: the initial angles are in exactly one posture.
    let initial = rig.hinges.map(\.initial)
    check(rig.postures.filter { PostureResolver.contains($0, angles: initial, rig: rig, margin: 0) }.count == 1, "initial angles not in exactly one posture")

    // Counting the settings is cheap; the engine below computes the pool from them once.
    let samples = HingeSamples.forEach(rig) { _ in true }
    check(samples <= HingeSamples.budget, "the pool would look at \(samples) hinge settings")
    let engine = FoldEngine(rig: rig)
    let state = StateEncoder.encode(engine.state, rig: rig, plan: engine.plan)
    checkFinite(state)
    checkReply(state)
}
