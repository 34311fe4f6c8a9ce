import FoldcamCore
import FoldcamDevices
import FoldcamIO
import FoldcamPlatform

/// Connects the device layer to the daemon: starts the device thread (which does all blocking
/// device work), applies its updates on the event loop, and restarts it for a new rig.
final class HardwareInputs {
    private let loop: EventLoop
    private unowned let daemon: Daemon
    let log: Log
    private var config: DaemonConfig
    /// Nil until started, and once stopped.
    private var thread: DeviceThread?
    /// The loopback labels the running thread was asked to locate.
    private var asked: [String] = []
    /// Wakes the daemon when the engine's next check is due: a debounced presence change, or a
    /// stuck window a sensor that posts only changes would never complete (the engine never waits).
    private let checkTimer: Timer
    private var checkTimerRegistered = false

    /// How long start-up waits for the first inventory before reporting ready anyway.
    /// Below the unit's TimeoutStartSec (30 s), so a slow inventory still ends in READY=1.
    static let inventoryTimeout: Duration = .seconds(20)

    init(daemon: Daemon, loop: EventLoop, config: DaemonConfig, log: Log) throws {
        checkTimer = try Timer()
        self.loop = loop
        self.daemon = daemon
        self.config = config
        self.log = log
    }

    /// Starts the device thread and waits for its first inventory, so READY=1 (sent after the
    /// services started) means the cameras and sensors present at start are known.
    func start() throws {
        let thread = try DeviceThread(rig: daemon.rig, settings: settings(config), log: log)
        self.thread = thread
        let first = thread.awaitInventory(timeout: Self.inventoryTimeout)
        if !first.contains(.inventoryComplete) {
            log.warning("the first device inventory took longer than \(Self.inventoryTimeout); serving with what is known so far")
        }
        apply(first)
        try register(thread)
    }

    /// After a reload: a new thread for the new rig. Its inventory arrives through the loop;
    /// nothing here blocks.
    func restart(config: DaemonConfig) throws {
        stop()
        self.config = config
        let thread = try DeviceThread(rig: daemon.rig, settings: settings(config), log: log)
        self.thread = thread
        try register(thread)
    }

    func stop() {
        if checkTimerRegistered {
            checkTimer.cancel()
            loop.unregister(checkTimer.descriptor)
            checkTimerRegistered = false
        }
        guard let thread else { return }
        loop.unregister(thread.updates.descriptor)
        thread.stop()
        self.thread = nil
    }

    /// The device layer's settings, asking it to locate the loopbacks not located yet (a
    /// loopback being fed is not opened again).
    private func settings(_ config: DaemonConfig) -> DeviceSettings {
        var settings = DeviceSettings(config: config)
        let labels = config.cameraMode == .virtual && config.feedsLoopback ? config.virtualCameras.filter { $0.loopbackDevice == nil }.map(\.loopbackLabel) : []
        asked = daemon.loopbacks.unknown(among: labels)
        settings.locateLoopbacks = asked
        return settings
    }

    private func register(_ thread: DeviceThread) throws {
        let updates = thread.updates
        try loop.register(updates.descriptor) { [unowned self] _ in self.apply(updates.drain()) }
        try loop.register(checkTimer.descriptor) { [unowned self] _ in
            _ = self.checkTimer.acknowledge()
            self.daemon.apply(.advanceTime(milliseconds: 0))
            self.armCheckTimer()
        }
        checkTimerRegistered = true
    }

    /// Arms the timer for the engine's next check, if one is pending.
    private func armCheckTimer() {
        guard let due = daemon.nextCheckAtMilliseconds else { return }
        let now = Int(MonotonicClock.nanoseconds / 1_000_000)
        try? checkTimer.schedule(after: .milliseconds(max(1, due - now)))
    }

    private func apply(_ updates: [DeviceUpdate]) {
        for update in updates {
            switch update {
            case let .cameras(descriptors): daemon.replaceDescriptors(descriptors)
            case let .input(event):
                daemon.applyDeviceInput(event)
                armCheckTimer()
            case let .loopbacks(asked, found): daemon.loopbacks.record(asked: asked, found: found)
            case .inventoryComplete:
                log.debug("device inventory complete")
                // A device layer that failed located nothing: those labels have no loopback.
                let missing = daemon.loopbacks.unknown(among: asked)
                if !missing.isEmpty { daemon.loopbacks.record(asked: missing, found: [:]) }
            case let .failed(reason): log.error("\(reason); cameras not seen stay unplugged, hinges at the rig's declared defaults")
            }
        }
    }
}
