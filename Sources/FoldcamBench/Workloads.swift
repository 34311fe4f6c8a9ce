import FoldcamCore

/// The measured operations, each a plain function of a subject so the table and the JSON
/// report the same thing.
enum Workloads {
    /// `FoldEngine.recompute()`: every decision from the current inputs, at the subject's open pose.
    static func recompute(_ subject: Subject, iterations: Int, warmUp: Int) -> Stats {
        var engine = subject.engine
        return measure(iterations: iterations, warmUp: warmUp, label: "\(subject.name) recompute") {
            blackHole(engine.recompute())
        }
    }

    /// `FoldEngine.apply(.hingeAngle(...))` with the first hinge sweeping its range: recording
    /// the reading, the full recompute, and the change diff against the previous state.
    static func applyHingeAngle(_ subject: Subject, iterations: Int, warmUp: Int) -> Stats {
        var engine = subject.engine
        let readings = subject.sweep()
        var next = 0
        return measure(iterations: iterations, warmUp: warmUp, label: "\(subject.name) apply(hingeAngle)") {
            let update = engine.apply(.hingeAngle(hinge: 0, degrees: readings[next]))
            next = next + 1 == readings.count ? 0 : next + 1
            blackHole(update)
        }
    }

    /// Baseline: the geometry floor. The same pose and vectors a recompute needs, with none of
    /// its decisions and no state built: the rig pose (one rotation product per hinge), each
    /// camera's image basis, each display's viewing normal, and θ = acos(a·n) for every
    /// (display, camera) pair.
    static func geometryFloor(_ subject: Subject, iterations: Int, warmUp: Int) -> Stats {
        let rig = subject.rig
        let angles = subject.angles
        return measure(iterations: iterations, warmUp: warmUp, label: "\(subject.name) geometry floor") {
            blackHole(geometry(rig, angles))
        }
    }

    static func geometry(_ rig: Rig, _ angles: [Double]) -> Double {
        let pose = RigPose(rig: rig, angles: angles)
        let bases = rig.cameras.map { ImageRotation.basis(of: $0, pose: pose) }
        var sum = 0.0
        for display in rig.displays {
            guard let normal = DirectionClassifier.viewingNormal(display, pose: pose) else { continue }
            for basis in bases { sum += Trig.acos(basis.axis.dot(normal)) }
        }
        return sum
    }

    /// Reference: publishing one state, i.e. `StateEncoder.encode(...)` to compact JSON, which the
    /// daemon does for subscribers after a change.
    static func publish(_ subject: Subject, iterations: Int, warmUp: Int) -> Stats {
        let state = subject.engine.state
        let rig = subject.rig
        let plan = subject.plan
        return measure(iterations: iterations, warmUp: warmUp, label: "\(subject.name) publish") {
            blackHole(StateEncoder.encode(state, rig: rig, plan: plan).compactText)
        }
    }

    /// Heap in use before and after many full recomputes.
    static func recomputeHeap(_ subject: Subject, meter: HeapMeter, iterations: Int, warmUp: Int) -> HeapResult {
        var engine = subject.engine
        return measureHeap(meter, iterations: iterations, warmUp: warmUp, label: "\(subject.name) recompute heap") {
            blackHole(engine.recompute())
        }
    }
}
