import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// One way of reading a sensor, as iio-sensor-proxy keeps a table of drivers: each says from
/// what udev and sysfs show whether it can read a device (`discover`), sets it up (`open`) and
/// lets go of it (`close`). A new transport is a new driver in `SensorDrivers.table`; the
/// `SensorSet` that runs them does not change. `SendableMetatype`: the table of driver types is
/// a global that any thread may read.
protocol SensorDriver: AnyObject, SendableMetatype {
    /// How it reads, for the log line that announces a sensor ("polled from sysfs").
    var how: String { get }
    /// Set for drivers whose device delivers samples on a descriptor: the device thread watches
    /// it and calls `readReady`. Nil for polled drivers, which `poll` reads on every tick.
    var descriptor: FileDescriptor? { get }
    /// How often a polled driver wants its `poll` tick; nil for a driver with a `descriptor`,
    /// which needs no tick at all.
    var pollRate: PollRate? { get }

    /// Whether this driver can read `record`, which the classifier made `role`.
    static func discover(_ record: UdevRecord, role: SensorRole, options: SensorOptions) -> Bool
    /// Sets the device up; throws when it cannot, and the next driver that discovers it is tried.
    static func open(_ record: UdevRecord, role: SensorRole, context: SensorContext) throws(DeviceError) -> any SensorDriver

    /// A poll tick (and a sensor's first reading, `first`): the events to post.
    func poll(atMilliseconds now: Int, first: Bool) throws(DeviceError) -> [InputEvent]
    /// `descriptor` became readable.
    func readReady(atMilliseconds now: Int) throws(DeviceError) -> [InputEvent]
    /// The device is gone or no longer used: what the engine is told (its input falls back).
    func close() -> [InputEvent]
    /// What the last poll read but did not post because it had not changed (a still
    /// accelerometer); nil when it posted, or for sensors that never hold a reading back.
    var heldBackReading: InputEvent? { get }
}

extension SensorDriver {
    var heldBackReading: InputEvent? { nil }
}

/// The drivers, most capable first: the first whose `discover` accepts a device and whose
/// `open` succeeds reads it.
enum SensorDrivers {
    static let table: [any SensorDriver.Type] = [IIOBufferedHingeDriver.self, IIOPolledHingeDriver.self, IIOAccelerometerDriver.self]
}

/// What a sensor is to the rig, from `IIOClassifier`.
enum SensorRole {
    case hinge(hinge: Int, matchedBy: String)
    case accelerometer(sensor: Int, location: String, matrix: MountMatrix, matrixSource: String)
}

struct SensorOptions {
    /// False for one-shot reads (`foldcamd --probe`), which must not reconfigure buffers.
    var useBuffers: Bool
    /// Who else reads the device being added (iio-sensor-proxy): a shared one is never buffered.
    var sharing: SensorSharing = .own

    /// Whether a driver may open the device's IIO buffer.
    var mayUseBuffer: Bool { useBuffers && sharing.mayUseBuffer }
}

/// What every driver shares: the rig, the switch states (an engaged switch rests its hinge's
/// polled sensor) and one rate-limited warning channel.
final class SensorContext {
    let rig: Rig
    let log: Log
    /// `sensorPollMilliseconds`: the fastest a polled sensor is read.
    let pollFloorMilliseconds: Int
    private var limiter = WarningLimiter()
    var lidClosed = false
    var tabletModeOn = false

    init(rig: Rig, log: Log, pollFloorMilliseconds: Int) {
        self.rig = rig
        self.log = log
        self.pollFloorMilliseconds = pollFloorMilliseconds
    }

    /// Whether a switch currently decides this hinge's angle (then its polled sensor rests). A
    /// hint decides nothing while the sensor reads, so its sensor keeps being read.
    func switchOverrides(_ hinge: Int) -> Bool {
        func decides(_ mapping: SwitchMapping?) -> Bool { mapping?.hinge == hinge && mapping?.mode == .override }
        return (lidClosed && decides(rig.switches.lid)) || (tabletModeOn && decides(rig.switches.tabletMode))
    }

    /// A warning, at most one per `key` per interval.
    func warn(_ key: String, _ message: String, _ now: Int) {
        if let text = limiter.admit(key: key, message, atMilliseconds: now) { log.warning(text) }
    }
}
