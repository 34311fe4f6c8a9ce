import FoldcamCore

/// Human-readable lines for a state, for the simulator's output and `foldcamctl watch`.
public enum StateText {
    /// A multi-line summary: hinges and posture, each display's direction map, the virtual camera.
    public static func describe(_ state: FoldState, rig: Rig, plan: VirtualCameraPlan) -> [String] {
        var lines: [String] = []
        let hinges = rig.hinges.indices.map { "\(rig.hinges[$0].id) \(angleText(state.hingeAngles[$0]))° (\(state.hingeSources[$0].rawValue))" }
        var head = "posture \(rig.postures[state.posture].id)"
        if !hinges.isEmpty { head = hinges.joined(separator: ", ") + "  " + head }
        head += "  viewing \(rig.displays[state.viewedDisplay].id)"
        if let pinned = state.pinnedDisplay { head += " (pinned \(rig.displays[pinned].id))" }
        lines.append(head)
        for (index, display) in state.displays.enumerated() {
            let name = rig.displays[index].id
            if display.occluded {
                lines.append("  \(name): occluded")
                continue
            }
            let forward = display.forward.map { pairText($0, display, rig) }.joined(separator: ", ")
            let backward = display.backward.map { rig.cameras[$0].id }.joined(separator: ", ")
            let covered = display.covered.isEmpty ? "" : "  covered \(display.covered.map { rig.faceName($0.face) }.joined(separator: ", "))"
            lines.append("  \(name): forward [\(forward)]  backward [\(backward)]\(covered)")
        }
        let unavailable = state.cameras.indices.compactMap { index in
            state.cameras[index].unavailable.map { "\(rig.cameras[index].id) (\($0.rawValue))" }
        }
        if !unavailable.isEmpty { lines.append("  unavailable: \(unavailable.joined(separator: ", "))") }
        var virtual = "  virtual camera: "
        if let source = state.virtualCamera.source {
            virtual += "\(rig.cameras[source].id), upright by \(state.cameras[source].captureRotation)°"
        } else {
            virtual += "no source (\(state.virtualCamera.noSourceReason?.rawValue ?? "none"))"
        }
        if let format = plan.format { virtual += "  \(format)" }
        lines.append(virtual)
        return lines
    }

    static func pairText(_ camera: Int, _ display: DisplayState, _ rig: Rig) -> String {
        guard let pair = display.pairs[camera] else { return rig.cameras[camera].id }
        var text = rig.cameras[camera].id
        var notes: [String] = []
        if pair.mirror { notes.append("mirrored") }
        if pair.previewRotation != 0 { notes.append("rotate \(pair.previewRotation)°") }
        if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
        return text
    }

    static func angleText(_ angle: Double) -> String {
        let tenths = (angle * 10).rounded()
        let whole = Int(tenths / 10)
        let fraction = abs(Int(tenths) % 10)
        return "\(whole).\(fraction)"
    }
}
