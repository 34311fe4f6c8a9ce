import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// The sensors in use, each read by the driver `SensorDrivers.table` chose for it: an IIO
/// device is classified against the rig, then the first driver that discovers it and opens it
/// reads it. Each poll tick reads the polled drivers; buffered ones are read when their
/// descriptor is ready. Readings come back as the `InputEvent`s to post. Lives on the device
/// thread; reads block.
final class SensorSet {
    private struct Entry {
        let driver: any SensorDriver
        /// Warnings about one sensor share a rate limit.
        let warningKey: String
    }

    let context: SensorContext
    let options: SensorOptions
    /// Asked when a device udev tagged for iio-sensor-proxy appears (a D-Bus round trip), so a
    /// proxy started after foldcamd is seen too.
    private let lookUpProxy: () -> SensorProxyStatus
    private var entries: [String: Entry] = [:]
    /// The display accelerometer iio-sensor-proxy reads (by its label, as the proxy chooses it),
    /// with the rig accelerometer it is: its orientation can be asked of the proxy over D-Bus.
    private(set) var proxyAccelerometer: (syspath: String, sensor: Int)?

    /// `useBuffers` false for one-shot reads (`foldcamd --probe`), which must not reconfigure buffers.
    /// `pollFloorMilliseconds` is `sensorPollMilliseconds` (the configuration's default, 50, unless given).
    /// `lookUpProxy` is `SensorProxyStatus.lookUp` except in tests.
    init(rig: Rig, log: Log, useBuffers: Bool = true, pollFloorMilliseconds: Int = DaemonConfig().sensorPollMilliseconds,
         lookUpProxy: @escaping () -> SensorProxyStatus = SensorProxyStatus.lookUp) {
        context = SensorContext(rig: rig, log: log, pollFloorMilliseconds: pollFloorMilliseconds)
        options = SensorOptions(useBuffers: useBuffers)
        self.lookUpProxy = lookUpProxy
    }

    /// Who else reads `record`: only a device tagged for iio-sensor-proxy makes the bus be asked.
    func sharing(_ record: UdevRecord) -> SensorSharing {
        guard record.properties[SensorSharing.proxyTypeProperty] != nil else { return .own }
        let proxy = lookUpProxy()
        if case .unknown = proxy { context.log.notice("IIO device \(record.syspath) is tagged for iio-sensor-proxy, whose status is \(proxy)") }
        return SensorSharing.of(properties: record.properties, proxy: proxy)
    }

    var isEmpty: Bool { entries.isEmpty }
    /// The poll tick's period: the fastest rate any polled sensor wants (every polled sensor is
    /// read on each tick). Nil when no sensor is polled (buffered ones, or none): then the device
    /// thread needs no tick at all.
    var pollMilliseconds: Int? { entries.values.compactMap { $0.driver.pollRate?.milliseconds }.min() }

    /// How a sensor in use is polled (nil when it is read from a descriptor, or not in use).
    func pollRate(_ syspath: String) -> PollRate? { entries[syspath]?.driver.pollRate }

    /// Switch states as libinput reported them: an engaged switch rests its hinge's polled sensor.
    var lidClosed: Bool {
        get { context.lidClosed }
        set { context.lidClosed = newValue }
    }

    var tabletModeOn: Bool {
        get { context.tabletModeOn }
        set { context.tabletModeOn = newValue }
    }

    /// An IIO device appeared (or was enumerated): classify it, start reading it, and return its
    /// first reading.
    func add(_ record: UdevRecord, atMilliseconds now: Int = 0) -> [InputEvent] {
        let role: SensorRole
        let warningKey: String
        switch IIOClassifier.classify(record, rig: context.rig) {
        case let .hinge(hinge, matchedBy):
            role = .hinge(hinge: hinge, matchedBy: matchedBy)
            warningKey = "hinge \(record.syspath)"
        case let .accelerometer(sensor, location, matrix, matrixSource):
            role = .accelerometer(sensor: sensor, location: location, matrix: matrix, matrixSource: matrixSource)
            warningKey = "accel \(record.syspath)"
        case let .skipped(reason):
            context.log.debug("IIO device \(record.syspath) skipped: \(reason)")
            return []
        }
        var deviceOptions = options
        deviceOptions.sharing = sharing(record)
        if let holder = deviceOptions.sharing.holder {
            context.log.notice("IIO device \(record.syspath) is shared with \(holder), which runs: foldcam reads it by polled sysfs reads and leaves its IIO buffer to the proxy")
            if case let .accelerometer(sensor, location, _, _) = role, location == "display", proxyAccelerometer == nil {
                proxyAccelerometer = (record.syspath, sensor)
            }
        }
        var failure: DeviceError?
        for driver in SensorDrivers.table where driver.discover(record, role: role, options: deviceOptions) {
            do {
                let opened = try driver.open(record, role: role, context: context)
                if case let .hinge(hinge, matchedBy) = role {
                    context.log.info("hinge sensor \(record.syspath): hinge \(context.rig.hinges[hinge].id) (\(matchedBy)), \(opened.how)")
                }
                entries[record.syspath] = Entry(driver: opened, warningKey: warningKey)
                return read(record.syspath, now: now) { driver throws(DeviceError) in try driver.poll(atMilliseconds: now, first: true) }
            } catch {
                failure = error
            }
        }
        if let failure { context.log.warning("\(failure); not using this sensor") }
        return []
    }

    /// A device went away: its hinge or accelerometer falls back to the next input.
    func remove(syspath: String) -> [InputEvent] {
        if proxyAccelerometer?.syspath == syspath { proxyAccelerometer = nil }
        return entries.removeValue(forKey: syspath)?.driver.close() ?? []
    }

    /// Reads every polled sensor once (hinge sensors only while no switch overrides them).
    func poll(atMilliseconds now: Int) -> [InputEvent] {
        let events = entries.keys.flatMap { syspath in
            read(syspath, now: now) { driver throws(DeviceError) in try driver.poll(atMilliseconds: now, first: false) }
        }
        return events + stillPartners(of: events)
    }

    /// The engine pairs accelerometers only when both reported since its last angle, so a lid
    /// folded over a still base would give no angle: when one accelerometer moved, the others'
    /// readings from the same tick, held back as unchanged, are posted beside it.
    private func stillPartners(of events: [InputEvent]) -> [InputEvent] {
        var moved: Set<Int> = []
        for case let .accelerometer(sensor, _) in events { moved.insert(sensor) }
        guard !moved.isEmpty else { return [] }
        return entries.values.compactMap { entry in
            guard case let .accelerometer(sensor, _)? = entry.driver.heldBackReading, !moved.contains(sensor) else { return nil }
            return entry.driver.heldBackReading
        }
    }

    /// The descriptor the device thread watches for a sensor that delivers samples (nil when polled).
    func descriptor(_ syspath: String) -> FileDescriptor? { entries[syspath]?.driver.descriptor }

    /// The sensor's descriptor became readable. `vanished` means the device is gone: the caller
    /// stops watching the descriptor (a dead one stays readable), then calls `remove`.
    func readReady(_ syspath: String, atMilliseconds now: Int) -> (events: [InputEvent], vanished: Bool) {
        guard let entry = entries[syspath] else { return ([], false) }
        do {
            return (try entry.driver.readReady(atMilliseconds: now), false)
        } catch {
            context.warn(entry.warningKey, "\(error)", now)
            return ([], error.isVanished)
        }
    }

    /// One read of a polled sensor; a sensor that vanished meanwhile is removed at once.
    private func read(_ syspath: String, now: Int, _ body: (any SensorDriver) throws(DeviceError) -> [InputEvent]) -> [InputEvent] {
        guard let entry = entries[syspath] else { return [] }
        do {
            return try body(entry.driver)
        } catch {
            context.warn(entry.warningKey, Self.readFailure(error), now)
            return error.isVanished ? remove(syspath: syspath) : []
        }
    }

    /// A failed read, said with what it means: EBUSY on a sysfs read is an IIO buffer another
    /// process runs (iio-sensor-proxy does on GNOME and KDE), during which drivers refuse raw reads.
    static func readFailure(_ error: DeviceError) -> String {
        guard error.isBusy else { return "\(error)" }
        return "\(error): another process runs this sensor's IIO buffer (iio-sensor-proxy does on GNOME and KDE) and the driver refuses raw reads meanwhile; foldcam decides from the other inputs until reads succeed"
    }
}
