import FoldcamClient
import FoldcamPlatform

/// What `follow` needs for mutter beyond one command: the current layout (read afresh before
/// each change, since mutter refuses a call with an old serial) and the logical monitor of an
/// output it switched off, to put back when the output comes on again.
struct GnomeSession {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private var removed: [String: GnomeDisplayConfig.LogicalMonitor] = [:]

    mutating func argv(for action: FollowAction, dryRun: Bool) throws -> [String] {
        let reply = try ToolProcess.run(GnomeDisplayConfig.currentStateArgv)
        guard reply.succeeded else { throw Failure(description: "GetCurrentState failed: \(reply.output)") }
        let (serial, layout) = try GnomeDisplayConfig.currentLayout(GVariantText.parse(reply.output))
        guard let next = GnomeDisplayConfig.layout(layout, after: action, restoring: removed[action.output]) else {
            throw Failure(description: "mutter shows no monitor \(action.output) (and none was switched off here to restore)")
        }
        if case .power(on: false) = action.change, let gone = layout.first(where: { $0.monitors.contains { $0.connector == action.output } }) {
            removed[action.output] = gone
        }
        if case .power(on: true) = action.change, !dryRun { removed[action.output] = nil }
        return GnomeDisplayConfig.applyArgv(serial: serial, layout: next)
    }
}
