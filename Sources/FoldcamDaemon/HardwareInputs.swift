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
    private var thread: DeviceThread

    /// How long start-up waits for the first inventory before reporting ready anyway.
    /// Below the unit's TimeoutStartSec (30 s), so a slow inventory still ends in READY=1.
    static let inventoryTimeout: Duration = .seconds(20)

    /// Starts the device thread and waits for its first inventory, so READY=1 (sent after this
    /// returns) means the cameras and sensors present at start are known.
    init(daemon: Daemon, loop: EventLoop, config: DaemonConfig, log: Log) throws {
        self.loop = loop
        self.daemon = daemon
        self.log = log
        thread = try DeviceThread(rig: daemon.rig, settings: DeviceSettings(config: config), log: log)
        let first = thread.awaitInventory(timeout: Self.inventoryTimeout)
        if !first.contains(.inventoryComplete) {
            log.warning("the first device inventory took longer than \(Self.inventoryTimeout); serving with what is known so far")
        }
        apply(first)
        try register()
    }

    /// After a reload: a new thread for the new rig. Its inventory arrives through the loop;
    /// nothing here blocks.
    func restart(config: DaemonConfig) throws {
        stop()
        thread = try DeviceThread(rig: daemon.rig, settings: DeviceSettings(config: config), log: log)
        try register()
    }

    func stop() {
        loop.unregister(thread.updates.descriptor)
        thread.stop()
    }

    private func register() throws {
        let updates = thread.updates
        try loop.register(updates.descriptor) { [unowned self] _ in self.apply(updates.drain()) }
    }

    private func apply(_ updates: [DeviceUpdate]) {
        for update in updates {
            switch update {
            case let .cameras(descriptors): daemon.replaceDescriptors(descriptors)
            case let .input(event): daemon.apply(event)
            case .inventoryComplete: log.debug("device inventory complete")
            case let .failed(reason): log.error("\(reason); cameras not seen stay unplugged, hinges at the rig's declared defaults")
            }
        }
    }
}
