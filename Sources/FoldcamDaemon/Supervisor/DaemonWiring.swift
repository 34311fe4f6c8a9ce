import FoldcamCore
import FoldcamPlatform

/// The daemon's owner (`DaemonOwner`): the parts its decisions reach outside themselves, the
/// decision printer, the demo sweep and the metrics text. Built by the runner, which keeps it
/// for as long as it serves; the daemon holds it weakly.
final class DaemonWiring: DaemonOwner {
    /// The simulator's running commentary (nil: not printed).
    var printer: DecisionPrinter?
    weak var sweep: SweepDriver?
    /// The default virtual camera's service, whose producer counters the metrics show.
    weak var cameras: CameraService?
    private unowned let server: ControlServer
    private let metrics: DaemonMetrics
    private let startTime = WallClock.seconds

    init(server: ControlServer, metrics: DaemonMetrics) {
        self.server = server
        self.metrics = metrics
    }

    func daemon(_ daemon: Daemon, changed state: FoldState, _ change: StateChange) {
        if let printer, DecisionPrinter.isNoticeable(change) { printer.print(state, rig: daemon.rig, plan: daemon.engine.plan) }
    }

    func metricsText(for daemon: Daemon) -> String { report(daemon, lastWrite: nil) }

    /// The metrics text; `lastWrite` is the exporter's previous write, in seconds.
    func report(_ daemon: Daemon, lastWrite: Double?) -> String {
        MetricsReport.text(.init(daemon: daemon, clients: server.clientCount, metrics: metrics, producer: cameras?.producerStatistics, startTime: startTime, lastWriteSeconds: lastWrite))
    }

    func daemonHingeTakenOver(_ daemon: Daemon) {
        if let sweep, sweep.running { sweep.set(running: false) }
    }

    func daemon(_ daemon: Daemon, sweep running: Bool) -> Bool {
        sweep?.set(running: running) ?? false
    }
}
