import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// Runs the device layer on its own thread, so opening devices, ioctls and sysfs reads never
/// block the daemon's event loop. The loop registers `updates.descriptor` and drains it.
public final class DeviceThread: Sendable {
    public let updates: Mailbox<DeviceUpdate>
    private let stopSignal: Mailbox<Bool>
    private let thread: OSThread

    /// Starts the thread; its first updates are the inventory, then `.inventoryComplete`.
    public init(rig: Rig, settings: DeviceSettings, log: Log) throws(SystemCallError) {
        let updates = try Mailbox<DeviceUpdate>()
        let stopSignal = try Mailbox<Bool>()
        self.updates = updates
        self.stopSignal = stopSignal
        let body: @Sendable () -> Void = {
            do {
                let monitor = try HardwareMonitor(rig: rig, settings: settings, log: log, updates: updates)
                try monitor.run(stop: stopSignal)
            } catch {
                updates.post(.failed("device layer stopped: \(error)"))
                updates.post(.inventoryComplete)
            }
        }
        thread = try OSThread.start(name: "foldcam-devices", body)
    }

    /// Asks the thread to finish and waits for it.
    public func stop() {
        stopSignal.post(true)
        thread.join()
    }

    /// Blocks until the first inventory is complete (or `timeout` passes) and returns every
    /// update so far, in order. For start-up only, before the event loop runs.
    public func awaitInventory(timeout: Duration) -> [DeviceUpdate] {
        var collected: [DeviceUpdate] = []
        let deadline = MonotonicClock.now + timeout
        var waiting = PollSet()
        waiting.append(updates.descriptor.rawValue)
        while !collected.contains(.inventoryComplete) {
            let left = deadline - MonotonicClock.now
            guard left > .zero else { break }
            // A failed poll (it cannot fail for one valid descriptor) just drains early.
            _ = try? waiting.wait(timeoutMilliseconds: Int32(min(left.components.seconds * 1000 + 1, 1000)))
            collected += updates.drain()
        }
        return collected
    }
}
