import FoldcamClient
import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// `foldcamctl follow`: applies the `screens` recommendations through the compositor's own
/// tool, one command per change (ScreenFollower decides; CompositorCommands builds; this runs
/// them and prints what was asked and what the tool answered). It needs no more than read
/// access to the daemon: the compositor is the user's, not foldcamd's.
enum FollowCommand {
    static func run(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        try arguments.finish()
        let compositor = try chooseCompositor(arguments.value("--compositor"), environment: ProcessEnvironment.current)
        let outputs = try outputMap(arguments.values("--output"))
        let dryRun = arguments.flag("--dry-run")
        var follower = ScreenFollower()
        var gnome = GnomeSession()
        var warned: Set<String> = []
        var connectedOnce = false
        for await update in FoldcamClient.updates(topics: [.screens], socketPath: daemon.socketPath) {
            switch update {
            case .connected:
                connectedOnce = true
            case let .disconnected(error, _):
                guard connectedOnce, case .daemonNotRunning = error else { throw error }
                ControlTool.report("\(error); reconnecting (Ctrl-C to stop)")
            case let .event(event):
                guard event.topic == .screens else { continue }
                let (targets, unmapped) = ScreenTarget.parse(event.data, outputs: outputs)
                for display in unmapped where !warned.contains(display) {
                    warned.insert(display)
                    ControlTool.report("display \(display) has no output: give --output \(display)=OUTPUT (the compositor's name for it)")
                }
                for action in follower.update(targets) {
                    apply(action, compositor: compositor, dryRun: dryRun, gnome: &gnome, daemon)
                }
            }
        }
    }

    /// Runs one action's command (or, with --dry-run, only prints it) and prints the request
    /// with the tool's status and answer. A failure is reported, never retried.
    static func apply(_ action: FollowAction, compositor: Compositor, dryRun: Bool, gnome: inout GnomeSession, _ daemon: DaemonContext) {
        let change: String
        switch action.change {
        case let .power(on): change = on ? "on" : "off"
        case let .transform(degrees): change = "transform \(degrees)"
        }
        var argv: [String]?
        var problem: String?
        if compositor == .gnome {
            do { argv = try gnome.argv(for: action, dryRun: dryRun) } catch { problem = "\(error)" }
        } else {
            argv = CompositorCommands.argv(action, compositor: compositor)
        }
        var result: ToolProcess.Result?
        if let argv, !dryRun {
            do { result = try ToolProcess.run(argv) } catch { problem = "\(error)" }
        }
        let reply = (result?.output ?? problem ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingSpaces }.joined(separator: " ")
        if daemon.json {
            var members: [(String, JSONValue)] = [
                ("display", .string(action.display)), ("output", .string(action.output)), ("change", .string(change)),
                ("command", argv.map { .array($0.map { .string($0) }) } ?? .null),
            ]
            if let result { members += [("status", .int(Int(result.status))), ("reply", .string(reply))] }
            if let problem { members.append(("error", .string(problem))) }
            daemon.printJSON(.object(members))
        } else {
            let command = argv.map(shellText) ?? "-"
            let outcome = dryRun ? "not run (--dry-run)" : result.map { ($0.succeeded ? "ok" : "failed (status \($0.status))") + (reply.isEmpty ? "" : ": \(reply)") } ?? "failed: \(problem ?? "?")"
            daemon.emit("\(action.display) (\(action.output)) \(change): \(command) -> \(outcome)")
        }
        if let result, !result.succeeded { ControlTool.report("\(action.output): \(argv?.first ?? "?") refused \(change): \(reply)") }
    }

    static func chooseCompositor(_ name: String?, environment: [String: String]) throws -> Compositor {
        let names = Compositor.allCases.map(\.rawValue)
        if let name {
            guard let compositor = Compositor(rawValue: name) else {
                let hint = NearestName.suggestion(for: name, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
                throw UsageError("follow: unknown compositor \"\(name)\"\(hint) (compositors: \(names.joined(separator: ", ")))")
            }
            return compositor
        }
        guard let found = Compositor.detect(environment: environment) else {
            throw UsageError("follow: no compositor found (none of SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, XDG_CURRENT_DESKTOP=KDE|GNOME, WAYLAND_DISPLAY is set): run it inside your session or give --compositor \(names.joined(separator: "|"))")
        }
        return found
    }

    static func outputMap(_ values: [String]) throws -> [String: String] {
        var map: [String: String] = [:]
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw UsageError("--output: expected DISPLAY=OUTPUT (a rig display id and the compositor's output name, e.g. lower=eDP-2), got \"\(value)\"")
            }
            guard map[parts[0]] == nil else { throw UsageError("--output: display \(parts[0]) is given twice") }
            if let bad = CompositorCommands.unusableCharacter(in: parts[1]) {
                throw UsageError("--output: output name \(ClientText.quoted(parts[1])) has \(ClientText.quoted(String(bad))), which compositors' commands cannot carry: give the name as the compositor lists it (swaymsg -t get_outputs, hyprctl monitors)")
            }
            map[parts[0]] = parts[1]
        }
        return map
    }

    /// The command as a shell would read it (for people; the tool is run without a shell).
    static func shellText(_ argv: [String]) -> String {
        argv.map { word in
            let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@".contains($0) }
            return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
