import FoldcamCapture
import FoldcamCore
import FoldcamIO
import FoldcamPlatform

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

    public init(options: DaemonOptions, environment: [String: String]) {
        self.options = options
        self.environment = environment
        log = Log()
    }

    /// Loads and validates config and rig (`LoadedConfiguration`: relative paths resolved
    /// against the configuration file's directory).
    public static func loadConfiguration(_ options: DaemonOptions) throws -> (DaemonConfig, Rig) {
        let loaded = try LoadedConfiguration.load(options)
        return (loaded.config, loaded.rig)
    }

    /// The exit status: 0 after SIGTERM, 2 for a configuration or rig that does not load (bad
    /// input, which the unit's RestartPreventExitStatus=2 does not restart), 1 for any other
    /// failure.
    public func run() -> Int32 {
        SignalSource.ignoreBrokenPipe()
        MemoryPolicy.returnLargeBlocksToSystem()
        do {
            return try serve()
        } catch let error as UnloadableConfiguration {
            log.error("\(error.underlying)")
            return 2
        } catch {
            log.error("\(error)")
            return 1
        }
    }

    /// The configuration or rig did not load.
    struct UnloadableConfiguration: Error {
        let underlying: any Error
    }

    /// Builds the services and declares their start order (socket, decisions, demo sweep,
    /// device inputs, cameras, metrics, watchdog), starts them, serves until SIGTERM/SIGINT.
    /// The started services are stopped in reverse order on every way out, a throw included.
    private func serve() throws -> Int32 {
        // Signals first, before any thread exists, so all threads inherit the blocked mask.
        let signals = try SignalSource([.terminate, .interrupt, .hangUp])
        let loaded: LoadedConfiguration
        do { loaded = try LoadedConfiguration.load(options) } catch { throw UnloadableConfiguration(underlying: error) }
        let rig = loaded.rig
        config = loaded.config
        log.threshold = Self.priority(config.logLevel)
        for warning in loaded.warnings { log.warning(warning) }
        // Which device model gave the rig (or that none matched): said once, at start.
        if let model = loaded.model { log.notice(model.summary) }
        try Self.ensureDescriptors(for: config, log: log)

        let loop = try EventLoop()
        let services = ServiceGroup(log: log)
        // What this function registers on the loop itself (the reloads, the signals).
        var registered: [FileDescriptor] = []
        defer {
            services.stop()
            for descriptor in registered { loop.unregister(descriptor) }
            // Each part unregistered its own handlers; whatever is left (the clients' sessions)
            // would keep cycles between the loop's handlers and what they serve.
            loop.removeAllHandlers()
        }
        let metrics = DaemonMetrics()
        let listener = try makeListener()
        let server = try ControlServer(loop: loop, listener: listener, limits: .init(config), authorizer: authorizer(config), metrics: metrics, log: log)
        services.add(server)
        let daemon = Daemon(mode: options.simulate ? .simulate : .hardware, rig: rig, metrics: metrics, log: log)
        let wiring = DaemonWiring(server: server, metrics: metrics)
        daemon.owner = wiring
        server.handler = daemon
        daemon.subscribers = server
        daemon.stateStore = stateStore()
        daemon.restoreState()
        services.add(daemon)
        // Individual mode feeds no loopback: its one camera only answers `snapshot` in simulation.
        let specs = config.cameraMode == .virtual ? config.virtualCameras : [VirtualCameraSpec(id: VirtualCameraSpec.defaultID, loopbackLabel: config.loopbackLabel)]
        let follows = (try? VirtualCameraSpec.resolve(specs, rig: rig)) ?? specs.map { _ in .viewed }
        daemon.install(cameras: try zip(specs, follows).map { spec, follow in
            VirtualCameraSlot(spec: spec, plan: VirtualCameraPlan(rig: rig, follow: follow, sink: .available), snapshots: try startSnapshots(loop: loop, server: server))
        })
        if options.printDecisions {
            let printer = DecisionPrinter()
            printer.print(daemon.engine.state, rig: daemon.rig, plan: daemon.engine.plan)
            wiring.printer = printer
        }
        let sweep = try startSweep(loop: loop, daemon: daemon, rig: rig)
        wiring.sweep = sweep
        services.add(sweep)

        // Hardware: the first device inventory completes as it starts, before READY=1.
        if !options.simulate { services.add(try HardwareInputs(daemon: daemon, loop: loop, config: config, log: log)) }
        // One camera service per virtual camera, the default one first.
        let cameraServices = daemon.cameras.map { camera in
            CameraService(daemon: daemon, camera: camera, server: server, loop: loop, config: config, explicitNode: options.loopback, log: log)
        }
        for service in cameraServices { services.add(service) }
        wiring.cameras = cameraServices[0]

        // The exporter keeps the wiring (the daemon holds it weakly) until it is let go at stop.
        let exporter = try MetricsExporter(loop: loop, log: log) { [wiring, unowned daemon] lastWrite in wiring.report(daemon, lastWrite: lastWrite) }
        exporter.configure(directory: config.metricsDirectory, interval: .seconds(config.metricsIntervalSeconds))
        services.add(exporter)
        let notifier = SystemdNotifier(environment: environment)
        if let watchdog = try WatchdogService(notifier: notifier, loop: loop) { services.add(watchdog) }
        try services.start()

        let reloads = try ReloadWorker()
        try loop.register(reloads.results.descriptor) { [unowned self] _ in
            for result in reloads.collect() { self.finishReload(result, services: services, metrics: metrics, notifier: notifier) }
            if reloads.takeAnother() { self.beginReload(reloads, notifier: notifier) }
        }
        registered.append(reloads.results.descriptor)
        try loop.register(signals.descriptor) { [unowned self] _ in
            for signal in signals.pending() {
                switch signal {
                case .hangUp:
                    self.beginReload(reloads, notifier: notifier)
                default:
                    self.log.notice("received \(signal); stopping")
                    notifier.notify("STOPPING=1")
                    daemon.markStopping()
                    loop.stop()
                }
            }
        }
        registered.append(signals.descriptor)

        let socketDescription = listener.ownedPath ?? "the socket passed by systemd"
        log.info("foldcamd \(Daemon.version) serving \(socketDescription): rig \(rig.id), \(daemon.mode.rawValue) mode, \(ClientText.counted(rig.cameras.count, "camera"))")
        notifier.notify("READY=1\nSTATUS=serving \(socketDescription), rig \(rig.id) (\(daemon.mode.rawValue))")
        try loop.run()
        services.stop()
        log.info("foldcamd stopped")
        return 0
    }

    /// The state directory: the config's, else systemd's (`StateDirectory=` sets
    /// $STATE_DIRECTORY, a colon-separated list; the first is ours), else none.
    private func stateStore() -> StateStore? {
        let systemd = environment["STATE_DIRECTORY"].flatMap { $0.split(separator: ":").first.map(String.init) }
        guard let directory = config.stateDirectory ?? systemd else {
            log.info("no state directory (stateDirectory, or StateDirectory= under systemd): a persisted pin is refused, and screen rotations start at 0")
            return nil
        }
        do {
            return try StateStore(directory: directory, log: log)
        } catch {
            log.error("state: no thread to write \(directory) on (\(error)); a persisted pin is refused, and screen rotations start at 0")
            return nil
        }
    }

    /// Snapshots are encoded on a worker; their replies come back through the loop (the
    /// decisions service stops them).
    private func startSnapshots(loop: EventLoop, server: ControlServer) throws -> SnapshotService {
        let snapshots = try SnapshotService()
        snapshots.settleFrames = config.snapshotSettleFrames
        try snapshots.watch(on: loop, answering: server)
        return snapshots
    }

    /// The demo fold cycle (`--sweep`); a client that moves the hinge itself stops it
    /// (`DaemonWiring`).
    private func startSweep(loop: EventLoop, daemon: Daemon, rig: Rig) throws -> SweepDriver {
        let sweep = try SweepDriver(loop: loop, rig: rig, interval: .milliseconds(max(1, options.stepMilliseconds)), cycles: options.sweepCycles) { [unowned daemon] angles in
            for (hinge, angle) in angles.enumerated() where hinge < daemon.rig.hinges.count {
                daemon.apply(.hingeAngle(hinge: hinge, degrees: angle))
            }
        }
        if options.exitAfterSweep { sweep.onFinished = { loop.stop() } }
        if options.sweep && !sweep.set(running: true) { log.notice("rig \(rig.id) has no hinges: nothing to sweep") }
        return sweep
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

    /// Offers a prepared reload to every service (`ServiceGroup`: all check, then all apply,
    /// or none), then READY=1.
    private func finishReload(_ result: Result<ReloadWorker.Prepared, ReloadWorker.ReloadFailure>, services: ServiceGroup, metrics: DaemonMetrics, notifier: SystemdNotifier) {
        defer { notifier.notify("READY=1") }
        do {
            let prepared = try result.get()
            try services.reload(prepared)
            config = prepared.config
            log.threshold = Self.priority(prepared.config.logLevel)
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
    static let descriptorsPerExtraCamera: UInt64 = 16

    /// Every client is a file descriptor: raise the soft RLIMIT_NOFILE to what `maxClients`
    /// needs, or refuse the configuration when the hard limit is below it.
    static func ensureDescriptors(for config: DaemonConfig, log: Log) throws {
        // Each further virtual camera: its loopback, up to two cameras (one pre-warming), its
        // reader watch, timers and mailboxes.
        let needed = UInt64(config.maxClients) + descriptorsBesidesClients + descriptorsPerExtraCamera * UInt64(config.virtualCameras.count - 1)
        let limits = try OpenFileLimit.raiseSoftLimit(to: needed)
        guard limits.soft >= needed else {
            // Advice that can be followed: fewer clients only when at least one would then fit.
            let besides = needed - UInt64(config.maxClients)
            let advice = limits.hard > besides
                ? "lower maxClients to at most \(limits.hard - besides) or raise LimitNOFILE= in the service"
                : "the daemon needs \(besides) descriptors besides its clients, so raise LimitNOFILE= in the service to at least \(needed)"
            throw RigLoader.LoadError(description: "maxClients \(config.maxClients) needs \(needed) file descriptors, but the limit is \(limits.soft) (hard limit \(limits.hard)); \(advice)")
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
