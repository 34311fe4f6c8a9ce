import FoldcamCore
import FoldcamIO
import FoldcamRender
import Foundation

/// `foldcamd --simulate`: the rig with simulated sensors. With `--sweep` it folds every hinge
/// from its initial angle to its minimum, up to its maximum and back, printing each decision
/// that changes something a person would notice.
struct Simulator {
    let rig: Rig
    let log: Log

    func run(sweep: Bool, cycles: Int?, stepMilliseconds: Int) {
        var engine = FoldEngine(rig: rig)
        log.info("simulating rig \(rig.id) (\(rig.name)); virtual camera pool: \(engine.plan.pool.map { rig.cameras[$0].id }.joined(separator: ", "))")
        printState(engine.state, plan: engine.plan, elapsed: 0)
        guard sweep else { return }
        guard !rig.hinges.isEmpty else {
            log.notice("rig \(rig.id) has no hinges: nothing to sweep")
            return
        }
        let path = SweepPath(rig: rig, stepDegrees: 5)
        var cycle = 0
        var elapsed = 0
        while cycles.map({ cycle < $0 }) ?? true {
            for angles in path.steps {
                if stepMilliseconds > 0 { usleep(UInt32(stepMilliseconds) * 1000) }
                elapsed += stepMilliseconds
                var change = StateChange()
                for (hinge, angle) in angles.enumerated() {
                    let update = engine.apply(.hingeAngle(hinge: hinge, degrees: angle))
                    for warning in update.warnings { log.warning(warning) }
                    change = merged(change, update.change)
                }
                if change.posture || !change.displays.isEmpty || change.virtualCameraSource || change.viewedDisplay {
                    printState(engine.state, plan: engine.plan, elapsed: elapsed)
                }
            }
            cycle += 1
        }
    }

    private func merged(_ a: StateChange, _ b: StateChange) -> StateChange {
        var result = a
        result.hinges = a.hinges || b.hinges
        result.posture = a.posture || b.posture
        result.viewedDisplay = a.viewedDisplay || b.viewedDisplay
        result.displays = Array(Set(a.displays + b.displays)).sorted()
        result.cameras = Array(Set(a.cameras + b.cameras)).sorted()
        result.virtualCameraSource = a.virtualCameraSource || b.virtualCameraSource
        return result
    }

    private func printState(_ state: FoldState, plan: VirtualCameraPlan, elapsed: Int) {
        let stamp = String(format: "[%7.2fs] ", Double(elapsed) / 1000)
        let lines = StateText.describe(state, rig: rig, plan: plan)
        var text = stamp + lines[0] + "\n"
        for line in lines.dropFirst() { text += String(repeating: " ", count: stamp.count) + line + "\n" }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// A fold cycle: all hinges from their initial angles down to their minimum, up to their
/// maximum, and back to the initial angles, in steps of a few degrees.
struct SweepPath {
    let steps: [[Double]]

    init(rig: Rig, stepDegrees: Double) {
        let initial = rig.hinges.map(\.initial)
        let minimum = rig.hinges.map(\.minimum)
        let maximum = rig.hinges.map(\.maximum)
        var steps: [[Double]] = []
        for (from, to) in [(initial, minimum), (minimum, maximum), (maximum, initial)] {
            let span = zip(from, to).map { abs($1 - $0) }.max() ?? 0
            let count = max(1, Int((span / stepDegrees).rounded(.up)))
            for step in 1...count {
                let t = Double(step) / Double(count)
                steps.append(zip(from, to).map { $0 + ($1 - $0) * t })
            }
        }
        self.steps = steps
    }
}
