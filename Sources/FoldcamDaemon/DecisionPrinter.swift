import FoldcamCore
import FoldcamIO
import FoldcamPlatform
import FoldcamRender

/// Prints each decision a person would notice (posture, directions, viewed display, virtual
/// camera source) as readable lines on stdout: the simulator's running commentary.
final class DecisionPrinter {
    let start = MonotonicClock.now
    /// Cleared when stdout's reader goes away; the daemon keeps serving.
    private(set) var enabled = true

    func print(_ state: FoldState, rig: Rig, plan: VirtualCameraPlan) {
        guard enabled else { return }
        let elapsed = MonotonicClock.now - start
        let centiseconds = Int(elapsed.components.seconds) * 100 + Int(elapsed.components.attoseconds / 10_000_000_000_000_000)
        let number = "\(centiseconds / 100).\(centiseconds % 100 < 10 ? "0" : "")\(centiseconds % 100)"
        let stamp = "[" + String(repeating: " ", count: max(0, 7 - number.count)) + number + "s] "
        let lines = StateText.describe(state, rig: rig, plan: plan)
        var text = stamp + lines[0] + "\n"
        for line in lines.dropFirst() { text += String(repeating: " ", count: stamp.count) + line + "\n" }
        enabled = StandardOutput.write(text)
    }

    static func isNoticeable(_ change: StateChange) -> Bool {
        change.posture || !change.displays.isEmpty || change.virtualCameraSource || change.viewedDisplay || !change.cameras.isEmpty
    }
}
