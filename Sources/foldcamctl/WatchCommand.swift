import FoldcamClient
import FoldcamCore
import FoldcamIO
import Glibc

/// `foldcamctl watch [TOPIC ...]`: one line per change until interrupted. Each topic's current
/// value comes first; when the daemon restarts the watch reconnects and carries on.
enum WatchCommand {
    static func run(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        var topics: [Topic] = []
        while let name = arguments.takePositional() {
            guard let topic = Topic(rawValue: name) else {
                let names = Topic.allCases.map(\.rawValue)
                let hint = NearestName.suggestion(for: name, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
                throw UsageError("watch: unknown topic \"\(name)\"\(hint) (topics: \(names.joined(separator: ", ")))")
            }
            topics.append(topic)
        }
        try arguments.finish()
        if topics.isEmpty { topics = Topic.allCases }
        let wait = !arguments.flag("--no-wait")
        var connectedOnce = false
        var outageReported = false
        for await update in FoldcamClient.updates(topics: topics, socketPath: daemon.socketPath) {
            switch update {
            case let .connected(path):
                if outageReported { ControlTool.report(connectedOnce ? "reconnected to \(path)" : "connected to \(path)") }
                connectedOnce = true
                outageReported = false
            case let .event(event):
                daemon.emit(daemon.json ? rawLine(event) : line(event))
            case let .disconnected(error, retryIn):
                if !connectedOnce {
                    // Not up yet: wait for it (the feed retries with a growing delay) unless
                    // --no-wait; any other failure (not allowed, untrusted server) is final.
                    guard wait, case .daemonNotRunning = error else { throw error }
                    // Once: the feed keeps retrying (backoff up to 5 s) without a line each time.
                    if !outageReported {
                        ControlTool.report("\(error); waiting for it, retrying every \(seconds(retryIn)) to 5 s (Ctrl-C to stop, --no-wait to fail at once)")
                    }
                } else if !outageReported {
                    ControlTool.report("\(error); reconnecting (Ctrl-C to stop)")
                }
                outageReported = true
            }
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let milliseconds = Int(duration / .milliseconds(1))
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }

    static func rawLine(_ event: FoldcamEvent) -> String {
        JSONValue.object([("event", .string(event.name)), ("seq", .int(event.seq)), ("data", event.data)]).compactText
    }

    /// `12:00:01.234  #8    posture        halfOpen; fold 140°; viewed inner (by posture)`
    static func line(_ event: FoldcamEvent) -> String {
        let name = padded(event.name, to: 13)
        let seq = padded("#\(event.seq)", to: 6)
        return "\(timestamp())  \(seq)\(name)  \(summary(event))"
    }

    /// `text` with spaces after it up to `width` characters (never cut).
    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    static func summary(_ event: FoldcamEvent) -> String {
        let data = event.data
        switch event.topic {
        case .posture?:
            return "\(data["posture"]?.stringValue ?? "?"); \(Describe.hinges(data["hinges"])); viewed \(Describe.viewed(data["viewedDisplay"], pinned: data["pinnedDisplay"]))"
        case .directions?:
            guard case let .object(displays)? = data["displays"] else { return data.compactText }
            let parts = displays.map { id, display in
                let reason = display["reason"]?.stringValue ?? (display["occluded"] == .bool(true) ? "occluded" : nil)
                return "\(id) -> \(Describe.list(display["forward"]))" + (reason.map { " (\($0))" } ?? "")
            }
            return "viewed \(data["viewedDisplay"]?.stringValue ?? "?"); " + parts.joined(separator: "; ")
        case .virtualCamera?:
            // Several virtual cameras: each one's source, by id.
            if case let .array(cameras)? = data["cameras"] {
                return cameras.map { "\($0["id"]?.stringValue ?? "?") source \(Describe.virtualCamera($0))" }.joined(separator: "; ")
            }
            return "source " + Describe.virtualCamera(data)
        case .readiness?:
            if case let .array(cameras)? = data["cameras"] {
                return cameras.map { "\($0["id"]?.stringValue ?? "?") \(Describe.readiness($0))" }.joined(separator: "; ")
            }
            return Describe.readiness(data)
        case .devices?:
            guard case let .array(cameras)? = data["cameras"] else { return data.compactText }
            var parts = cameras.map { camera in
                let id = camera["rigCamera"]?.stringValue ?? camera["uniqueID"]?.stringValue ?? "?"
                if camera["available"] == .bool(false) { return "\(id) " + (camera["reason"]?.stringValue ?? "unavailable") }
                return "\(id) ok"
            }
            // Displays on a named output: their output's state.
            if case let .array(displays)? = data["displays"] {
                for display in displays {
                    guard let output = display["output"]?.stringValue else { continue }
                    parts.append("\(display["id"]?.stringValue ?? "?") on \(output) \(display["state"]?.stringValue ?? "unknown")")
                }
            }
            return parts.joined(separator: "; ")
        case .screens?:
            guard case let .object(displays)? = data["displays"] else { return data.compactText }
            return displays.map { id, screen in
                let rotation = screen["rotation"].flatMap { if case let .int(degrees) = $0 { "\(degrees)°" } else { nil } } ?? "?"
                let power = screen["on"] == .bool(false) ? "off (\(screen["offReason"]?.stringValue ?? "?"))" : "on"
                return "\(id) \(rotation) \(power)"
            }.joined(separator: "; ")
        case nil:
            return data.compactText
        }
    }

    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var local = tm()
        localtime_r(&seconds, &local)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = now.tv_nsec / 1_000_000
        let millisText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(two(local.tm_hour)):\(two(local.tm_min)):\(two(local.tm_sec)).\(millisText)"
    }
}
