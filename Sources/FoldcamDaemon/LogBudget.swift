import FoldcamPlatform

/// Rate limit for log lines a peer can cause (bad requests, refusals): a burst of lines per
/// window, then silence until the window ends, then one line saying how many were held back.
/// A hostile client can make at most `burst` lines per window, however fast it writes.
struct LogBudget {
    let burst: Int
    let window: Duration
    private(set) var windowStart: MonotonicInstant?
    private var used = 0
    private(set) var suppressed = 0

    init(burst: Int = 5, window: Duration = .seconds(60)) {
        self.burst = burst
        self.window = window
    }

    enum Verdict: Equatable {
        /// Log the line; `suppressed` lines were held back before it.
        case log(suppressed: Int)
        /// The budget is spent: log the line and say that more will be held back.
        case lastBeforeSilence
        case silent
    }

    mutating func take(now: MonotonicInstant) -> Verdict {
        if let start = windowStart, now - start < window {
            used += 1
            if used < burst { return .log(suppressed: 0) }
            if used == burst { return .lastBeforeSilence }
            suppressed += 1
            return .silent
        }
        windowStart = now
        used = 1
        let held = suppressed
        suppressed = 0
        return burst == 1 ? .lastBeforeSilence : .log(suppressed: held)
    }

    /// Applies a verdict to a line: nil when it must not be logged.
    mutating func line(_ text: String, now: MonotonicInstant) -> String? {
        switch take(now: now) {
        case let .log(suppressed): return suppressed > 0 ? "\(text) (\(suppressed) similar lines held back)" : text
        case .lastBeforeSilence: return "\(text) (further such lines held back for \(window))"
        case .silent: return nil
        }
    }
}

extension LogBudget {
    /// Whether the window has ended with nothing held back: forgetting this budget loses nothing.
    func isIdle(now: MonotonicInstant) -> Bool {
        guard let start = windowStart else { return true }
        return now - start >= window && suppressed == 0
    }
}

/// One `LogBudget` per uid, shared by all of that user's connections: a user's 16 connections,
/// or a user reconnecting in a loop, get the same 5 lines a minute as one connection. Budgets
/// outlive connections; idle ones are forgotten once many users have one, so the table stays
/// bounded by the users active within a window.
struct UserLogBudgets {
    private var budgets: [UInt32: LogBudget] = [:]
    static let pruneAbove = 256

    /// Applies the user's budget to a line: nil when it must not be logged.
    mutating func line(_ text: String, uid: UInt32, now: MonotonicInstant) -> String? {
        if budgets[uid] == nil && budgets.count >= Self.pruneAbove {
            budgets = budgets.filter { !$0.value.isIdle(now: now) }
        }
        return budgets[uid, default: LogBudget()].line(text, now: now)
    }
}
