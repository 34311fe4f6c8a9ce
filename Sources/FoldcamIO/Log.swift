import Glibc

/// Logging to stderr with syslog priority prefixes (`<3>`), which journald files by priority.
public struct Log: Sendable {
    public enum Priority: Int, Sendable, Comparable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7

        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    public var threshold: Priority

    public init(threshold: Priority = .info) {
        self.threshold = threshold
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
