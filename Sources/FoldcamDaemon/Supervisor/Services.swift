import FoldcamCapture
import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// How each long-lived part takes a reload and stops (`ServiceGroup`).

extension ControlServer: DaemonService {
    var serviceName: String { "control socket" }

    func checkReload(_ reload: ReloadWorker.Prepared) throws {
        try DaemonRunner.ensureDescriptors(for: reload.config, log: log)
    }

    func applyReload(_ reload: ReloadWorker.Prepared) {
        limits = Limits(reload.config)
        if let missing = reload.missingGroup { log.warning("group \"\(missing)\" does not exist; only root and the daemon's user may change state or receive frames") }
        authorizer.controlGroup = reload.controlGroup
    }

    func stop() { shutdown() }
}

extension ControlServer.Limits {
    init(_ config: DaemonConfig) {
        self.init(
            maxClients: config.maxClients, maxClientsPerUser: config.maxClientsPerUser, reservedClients: config.reservedClients,
            requestTimeout: .seconds(config.requestTimeoutSeconds), stuckTimeout: .seconds(config.clientStuckSeconds))
    }
}

extension Daemon: DaemonService {
    var serviceName: String { "decisions" }
    func applyReload(_ reload: ReloadWorker.Prepared) {
        // A newly named state directory takes the current pin and rotations from now on.
        if let directory = reload.config.stateDirectory, directory != stateStore?.directory {
            do {
                stateStore = try StateStore(directory: directory, log: log)
                log.notice("state: now kept in \(directory)")
            } catch {
                log.error("state: no thread to write \(directory) on (\(error)); keeping \(stateStore?.directory ?? "no state directory")")
            }
        }
        replaceRig(reload.rig, plan: reload.plan, cameraPlans: reload.cameraPlans)
    }

    func stop() {
        owner = nil
        for camera in cameras { camera.snapshots?.stop() }
        loopbacks.stop()
        // The last pin or screen rotation is on disk before the process exits.
        stateStore?.flush()
    }
}

extension SweepDriver: DaemonService {
    var serviceName: String { "demo sweep" }
    func applyReload(_ reload: ReloadWorker.Prepared) { replaceRig(reload.rig) }
    func stop() {
        set(running: false)
        detach()
    }
}

extension HardwareInputs: DaemonService {
    var serviceName: String { "device inputs" }

    func applyReload(_ reload: ReloadWorker.Prepared) {
        do {
            try restart(config: reload.config)
        } catch {
            log.error("device inputs: cannot restart for the new rig: \(error); decisions go on without them")
        }
    }
}

extension MetricsExporter: DaemonService {
    var serviceName: String { "metrics writer" }
    func applyReload(_ reload: ReloadWorker.Prepared) { configure(directory: reload.config.metricsDirectory, interval: .seconds(reload.config.metricsIntervalSeconds)) }

    func stop() {
        if directory != nil { write() }
        configure(directory: nil, interval: .seconds(1))
        detach()
    }
}

/// systemd's keep-alive: WATCHDOG=1 at half of WatchdogSec.
final class WatchdogService: DaemonService {
    let serviceName = "systemd watchdog"
    private let timer: Timer
    private let interval: Duration
    private unowned let loop: EventLoop

    init?(notifier: SystemdNotifier, loop: EventLoop) throws {
        guard let interval = notifier.watchdogInterval else { return nil }
        let timer = try Timer()
        try loop.register(timer.descriptor) { _ in
            _ = timer.acknowledge()
            notifier.notify("WATCHDOG=1")
        }
        self.timer = timer
        self.interval = interval
        self.loop = loop
    }

    func start() throws { try timer.schedule(after: interval, repeating: interval) }

    func applyReload(_ reload: ReloadWorker.Prepared) {}
    func stop() {
        timer.cancel()
        loop.unregister(timer.descriptor)
    }
}
