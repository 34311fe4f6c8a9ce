import FoldcamCore
import FoldcamIO
import FoldcamRender
import Foundation

/// Prints each decision a person would notice (posture, directions, viewed display, virtual
/// camera source) as readable lines on stdout: the simulator's running commentary.
final class DecisionPrinter {
    let start = ContinuousClock.now
    /// Cleared when stdout's reader goes away; the daemon keeps serving.
    private(set) var enabled = true

    func print(_ state: FoldState, rig: Rig, plan: VirtualCameraPlan) {
        guard enabled else { return }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let stamp = String(format: "[%7.2fs] ", seconds)
        let lines = StateText.describe(state, rig: rig, plan: plan)
        var text = stamp + lines[0] + "\n"
        for line in lines.dropFirst() { text += String(repeating: " ", count: stamp.count) + line + "\n" }
        enabled = StandardOutput.write(text)
    }

    static func isNoticeable(_ change: StateChange) -> Bool {
        change.posture || !change.displays.isEmpty || change.virtualCameraSource || change.viewedDisplay || !change.cameras.isEmpty
    }
}
