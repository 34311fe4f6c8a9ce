import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// Writes `foldcam.prom` into node_exporter's textfile directory every `interval`, atomically
/// (docs/metrics.md). Off unless `metricsDirectory` is configured: only then does the daemon
/// wake periodically for it.
final class MetricsExporter {
    static let fileName = "foldcam.prom"

    private(set) var directory: String?
    private var interval: Duration = .seconds(15)
    private let timer: Timer
    private let loop: EventLoop
    private let log: Log
    private let report: (Double?) -> String
    private var lastWriteSeconds: Double?
    private var failureLogBudget = LogBudget(burst: 1, window: .seconds(300))
    private let clock = MonotonicClock()

    /// `report` renders the text; it is given the previous write's duration.
    init(loop: EventLoop, log: Log, report: @escaping (Double?) -> String) throws(SystemCallError) {
        self.loop = loop
        self.log = log
        self.report = report
        timer = try Timer()
        try loop.register(timer.descriptor) { [unowned self] _ in
            _ = self.timer.acknowledge()
            self.write()
        }
    }

    /// Writes to `directory` every `interval` from now on (at once too), or stops writing.
    /// The loop lets go of the timer (at stop).
    func detach() { loop.unregister(timer.descriptor) }

    func configure(directory: String?, interval: Duration) {
        guard directory != self.directory || interval != self.interval else { return }
        self.directory = directory
        self.interval = interval
        guard let directory else { return timer.cancel() }
        log.info("metrics: writing \(directory)/\(Self.fileName) every \(interval)")
        try? timer.schedule(after: .milliseconds(1), repeating: interval)
    }

    /// Writes the file now (also at start and at shutdown, so it never lags far behind).
    func write() {
        guard let directory else { return }
        let started = clock.now
        let text = report(lastWriteSeconds)
        do {
            // Checked at each write: a parent directory changed since must not redirect the file.
            if let refusal = DirectorySafety.check(directory).refusal { throw MetricsDirectoryRefused(description: refusal) }
            try SafeFile.replace(Array(text.utf8), directory: directory, name: Self.fileName)
            let (seconds, attoseconds) = (clock.now - started).components
            lastWriteSeconds = Double(seconds) + Double(attoseconds) / 1e18
        } catch {
            if let line = failureLogBudget.line("cannot write \(directory)/\(Self.fileName): \(error) (check metricsDirectory and its permissions)", now: clock.now) {
                log.warning(line)
            }
        }
    }
}

/// The metrics directory failed `DirectorySafety`: nothing is written there.
struct MetricsDirectoryRefused: Error, CustomStringConvertible {
    var description: String
}
