import FoldcamCapture
import FoldcamCore
import FoldcamIO
import FoldcamPlatform
import Glibc

/// How foldcamd was asked to run.
public struct DaemonOptions: Sendable {
    public var simulate = false
    /// A rig id or path given on the command line (overrides the config file's).
    public var rig: String?
    /// The config file; nil means the default, which may be absent.
    public var configPath: String?
    public var socketPath: String?
    public var sweep = false
    public var sweepCycles: Int?
    public var stepMilliseconds = 150
    public var printDecisions = true
    /// Stop when the sweep's cycles are done (for demos and tests).
    public var exitAfterSweep = false
    /// The v4l2loopback node to feed (overrides the config's loopbackDevice/loopbackLabel).
    public var loopback: String?

    public static let defaultConfigPath = "/etc/foldcam/foldcam.json"

    public init() {}
}

/// Sets up the event loop, socket, signals and systemd notification, then serves until
/// SIGTERM/SIGINT. Returns the process exit code.
public final class DaemonRunner {
    private let options: DaemonOptions
    private var log: Log
    private let environment: [String: String]
    private var config = DaemonConfig()
    /// The device layer (hardware mode only).
    private var hardware: HardwareInputs?

    public init(options: DaemonOptions, environment: [String: String]) {
        self.options = options
        self.environment = environment
        log = Log()
    }

    /// Loads and validates config and rig (also what `--check-config` runs).
    public static func loadConfiguration(_ options: DaemonOptions) throws -> (DaemonConfig, Rig) {
        var config = DaemonConfig()
        let path = options.configPath ?? DaemonOptions.defaultConfigPath
        let explicit = options.configPath != nil
        if explicit || (options.rig == nil && !options.simulate && FileManagerShim.exists(path)) {
            let text = try RigLoader.readText(path, what: "config file")
            do {
                config = try DaemonConfig.decode(json: text)
            } catch {
                throw RigLoader.LoadError(description: "config file \(path) is invalid:\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
            }
        }
        if let rig = options.rig { config.rig = rig }
        return (config, try RigLoader.load(config.rig))
    }

    public func run() -> Int32 {
        SignalSource.ignoreBrokenPipe()
        MemoryPolicy.returnLargeBlocksToSystem()
        do {
            return try serve()
        } catch {
            log.error("\(error)")
            return 1
        }
    }

    private func serve() throws -> Int32 {
        // Signals first, before any thread exists, so all threads inherit the blocked mask.
        let signals = try SignalSource([SIGTERM, SIGINT, SIGHUP])
        let rig: Rig
        (config, rig) = try Self.loadConfiguration(options)
        log.threshold = Self.priority(config.logLevel)
        try Self.ensureDescriptors(for: config, log: log)

        let loop = try EventLoop()
        let listener = try makeListener()
        let metrics = DaemonMetrics()
        let startTime = WallClock.seconds
        let server = try ControlServer(loop: loop, listener: listener, limits: limits(config), authorizer: authorizer(config), metrics: metrics, log: log)
        let daemon = Daemon(mode: options.simulate ? .simulate : .hardware, rig: rig, metrics: metrics, log: log)
        server.handler = daemon
        daemon.server = server
        let snapshots = try SnapshotService()
        try loop.register(snapshots.completions.descriptor) { [unowned server] _ in
            for completion in snapshots.finished() {
                server.completeDeferred(sessionID: completion.sessionID, requestID: completion.requestID, result: completion.result)
            }
        }
        daemon.snapshots = snapshots
        let printer = DecisionPrinter()
        if options.printDecisions {
            printer.print(daemon.engine.state, rig: daemon.rig, plan: daemon.engine.plan)
            daemon.onChange = { state, change in
                if DecisionPrinter.isNoticeable(change) { printer.print(state, rig: daemon.rig, plan: daemon.engine.plan) }
            }
        }

        let sweep = try SweepDriver(loop: loop, rig: rig, interval: .milliseconds(max(1, options.stepMilliseconds)), cycles: options.sweepCycles) { [unowned daemon] angles in
            for (hinge, angle) in angles.enumerated() where hinge < daemon.rig.hinges.count {
                daemon.apply(.hingeAngle(hinge: hinge, degrees: angle))
            }
        }
        daemon.onManualHinge = { [unowned sweep] in
            if sweep.running {
                sweep.set(running: false)
            }
        }
        daemon.sweepControl = { [unowned sweep] running in sweep.set(running: running) }
        if options.exitAfterSweep { sweep.onFinished = { loop.stop() } }
        if options.sweep && !sweep.set(running: true) { log.notice("rig \(rig.id) has no hinges: nothing to sweep") }

        let notifier = SystemdNotifier(environment: environment)
        var watchdogTimer: Timer?
        if let interval = notifier.watchdogInterval {
            let timer = try Timer()
            try timer.schedule(after: interval, repeating: interval)
            try loop.register(timer.descriptor) { _ in
                _ = timer.acknowledge()
                notifier.notify("WATCHDOG=1")
            }
            watchdogTimer = timer
        }

        let reloads = try ReloadWorker()
        try loop.register(reloads.results.descriptor) { [unowned self] _ in
            for result in reloads.collect() { self.finishReload(result, daemon: daemon, server: server, sweep: sweep, notifier: notifier) }
            if reloads.takeAnother() { self.beginReload(reloads, notifier: notifier) }
        }
        var exitCode: Int32 = 0
        try loop.register(signals.descriptor) { [unowned self] _ in
            for signal in signals.pending() {
                switch signal {
                case SIGHUP:
                    self.beginReload(reloads, notifier: notifier)
                default:
                    self.log.notice("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"); stopping")
                    notifier.notify("STOPPING=1")
                    daemon.markStopping()
                    exitCode = 0
                    loop.stop()
                }
            }
        }

        // Hardware: the first device inventory completes here, before READY=1.
        if !options.simulate { hardware = try HardwareInputs(daemon: daemon, loop: loop, config: config, log: log) }

        var producer: VirtualCameraProducer?
        if config.cameraMode == .individual {
            let control = try IndividualCameraControl(log: log)
            try loop.register(control.results.descriptor) { [unowned daemon] _ in
                for result in control.results.drain() where control.handle(result) { daemon.publish(candidates: [.devices]) }
            }
            daemon.individual = control
            log.info("individual camera mode: clients open the cameras; sensors are flipped when a capture needs 180°")
        } else {
            producer = try VirtualCameraSetup.start(daemon: daemon, loop: loop, snapshots: snapshots, config: config, explicitNode: options.loopback, log: log)
            server.authorizer.cameraGroup = producer.flatMap { $0.configuration.outputNode }.flatMap { Self.cameraGroup(of: $0) }
        }

        let report = { [unowned daemon, unowned server] (lastWrite: Double?) in
            MetricsReport.text(.init(daemon: daemon, clients: server.clientCount, metrics: metrics, producer: producer?.stats, startTime: startTime, lastWriteSeconds: lastWrite))
        }
        daemon.metricsText = { report(nil) }
        var exporter: MetricsExporter?
        if let directory = config.metricsDirectory {
            exporter = try MetricsExporter(directory: directory, interval: .seconds(config.metricsIntervalSeconds), loop: loop, log: log, report: report)
            log.info("metrics: writing \(directory)/\(MetricsExporter.fileName) every \(config.metricsIntervalSeconds) s")
        }

        let socketDescription = listener.ownedPath ?? "the socket passed by systemd"
        log.info("foldcamd \(Daemon.version) serving \(socketDescription): rig \(rig.id), \(daemon.mode.rawValue) mode, \(rig.cameras.count) cameras")
        notifier.notify("READY=1\nSTATUS=serving \(socketDescription), rig \(rig.id) (\(daemon.mode.rawValue))")
        try loop.run()

        sweep.set(running: false)
        producer?.send(.stop)
        hardware?.stop()
        watchdogTimer?.cancel()
        exporter?.write()
        exporter?.stop()
        server.shutdown()
        // Break the cycles between the loop's handlers and what they serve.
        loop.removeAllHandlers()
        daemon.onChange = nil
        daemon.onManualHinge = nil
        daemon.sweepControl = nil
        daemon.metricsText = nil
        log.info("foldcamd stopped")
        return exitCode
    }

    private func makeListener() throws -> UnixListener {
        if options.socketPath == nil && environment["FOLDCAM_SOCKET"] == nil,
           let activated = SocketActivation.listeningDescriptors(environment: environment).first {
            return try UnixListener(activated: activated)
        }
        let path: String
        do {
            path = try options.socketPath ?? SocketLocation.daemonPath(environment: environment)
            try SocketLocation.prepareDirectory(for: path)
        } catch {
            throw RigLoader.LoadError(description: "\(error)")
        }
        do {
            return try UnixListener(path: path)
        } catch {
            throw RigLoader.LoadError(description: "cannot listen on \(path): \(error)\n(set FOLDCAM_SOCKET or --socket to use another path)")
        }
    }

    private func limits(_ config: DaemonConfig) -> ControlServer.Limits {
        ControlServer.Limits(
            maxClients: config.maxClients, maxClientsPerUser: config.maxClientsPerUser, reservedClients: config.reservedClients,
            requestTimeout: .seconds(config.requestTimeoutSeconds), stuckTimeout: .seconds(config.clientStuckSeconds))
    }

    private func authorizer(_ config: DaemonConfig) -> Authorizer {
        var authorizer = Authorizer(daemonUID: GroupLookup.currentUserID)
        if let group = config.group {
            if let id = GroupLookup.id(named: group) {
                authorizer.controlGroup = .init(name: group, id: id)
            } else {
                log.warning("group \"\(group)\" does not exist; only root and the daemon's user may change state or receive frames")
            }
        }
        return authorizer
    }

    /// The group that owns the virtual camera's node: its members could open the camera
    /// themselves, so they may receive its frames from the daemon too.
    static func cameraGroup(of node: String) -> (group: Authorizer.Group, node: String)? {
        guard let id = GroupLookup.groupOwner(of: node) else { return nil }
        return (Authorizer.Group(name: GroupLookup.name(of: id) ?? "gid \(id)", id: id), node)
    }

    /// SIGHUP: re-read config and rig off the loop (`ReloadWorker`); on any error keep
    /// everything as it is. Clients stay.
    private func beginReload(_ reloads: ReloadWorker, notifier: SystemdNotifier) {
        guard !reloads.isPreparing else { return reloads.requestAnother() }
        notifier.notify("RELOADING=1")
        if !reloads.start(options) {
            log.error("reload rejected: no thread to prepare it on; keeping the running configuration")
            notifier.notify("READY=1")
        }
    }

    /// Swaps a prepared reload in (on the loop: no I/O, no search), then READY=1.
    private func finishReload(_ result: Result<ReloadWorker.Prepared, ReloadWorker.ReloadFailure>, daemon: Daemon, server: ControlServer, sweep: SweepDriver, notifier: SystemdNotifier) {
        let metrics = daemon.metrics
        defer { notifier.notify("READY=1") }
        do {
            let prepared = try result.get()
            try Self.ensureDescriptors(for: prepared.config, log: log)
            config = prepared.config
            log.threshold = Self.priority(prepared.config.logLevel)
            server.limits = limits(prepared.config)
            if let missing = prepared.missingGroup { log.warning("group \"\(missing)\" does not exist; only root and the daemon's user may change state or receive frames") }
            server.authorizer.controlGroup = prepared.controlGroup
            daemon.replaceRig(prepared.rig, plan: prepared.plan)
            sweep.replaceRig(prepared.rig)
            try hardware?.restart(config: prepared.config, log: log)
            metrics.reloaded(ok: true)
            log.notice("reloaded: rig \(prepared.rig.id)")
            notifier.notify("STATUS=reloaded, rig \(prepared.rig.id)")
        } catch {
            metrics.reloaded(ok: false)
            log.error("reload rejected, keeping the running configuration: \(error)")
        }
    }

    /// Descriptors the daemon needs besides its clients: devices, the loopback, epoll, timers,
    /// mailboxes, the journal.
    static let descriptorsBesidesClients: UInt64 = 64

    /// Every client is a file descriptor: raise the soft RLIMIT_NOFILE to what `maxClients`
    /// needs, or refuse the configuration when the hard limit is below it.
    static func ensureDescriptors(for config: DaemonConfig, log: Log) throws {
        let needed = UInt64(config.maxClients) + descriptorsBesidesClients
        let limits = try OpenFileLimit.raiseSoftLimit(to: needed)
        guard limits.soft >= needed else {
            throw RigLoader.LoadError(description: "maxClients \(config.maxClients) needs \(needed) file descriptors, but the limit is \(limits.soft) (hard limit \(limits.hard)); lower maxClients to at most \(limits.hard > descriptorsBesidesClients ? limits.hard - descriptorsBesidesClients : 0) or raise LimitNOFILE= in the service")
        }
        log.debug("file descriptor limit \(limits.soft) (hard \(limits.hard)) for \(config.maxClients) clients")
    }

    static func priority(_ level: String) -> Log.Priority {
        switch level {
        case "error": return .error
        case "warning": return .warning
        case "notice": return .notice
        case "debug": return .debug
        default: return .info
        }
    }
}

enum FileManagerShim {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
