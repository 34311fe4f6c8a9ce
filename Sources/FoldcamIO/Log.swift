import Synchronization

/// Logging to stderr with syslog priority prefixes (`<3>`), which journald files by priority.
///
/// One logger is shared by reference by every part of the daemon (server, device thread,
/// virtual camera, reload worker), so a SIGHUP that changes `logLevel` changes what all of them
/// log at once. The threshold is atomic: parts on other threads read it without a lock.
public final class Log: Sendable {
    public enum Priority: Int, Sendable, Comparable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7

        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    private let level: Atomic<Int>

    public init(threshold: Priority = .info) {
        level = Atomic(threshold.rawValue)
    }

    /// Messages above this priority (less important) are dropped.
    public var threshold: Priority {
        get { Priority(rawValue: level.load(ordering: .relaxed)) ?? .info }
        set { level.store(newValue.rawValue, ordering: .relaxed) }
    }

    public func log(_ priority: Priority, _ message: @autoclosure () -> String) {
        guard priority <= threshold else { return }
        let text = message().split(separator: "\n", omittingEmptySubsequences: false)
            .map { "<\(priority.rawValue)>\($0)" }.joined(separator: "\n")
        StandardError.write(text + "\n")
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
