import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// Everything that touches devices, on the device thread with its own event loop: the udev
/// monitor (enabled before enumerating), the camera inventory, the IIO sensors, the libinput
/// switches and the DRM connectors of the rig's outputs. It posts `DeviceUpdate`s to the daemon's loop; handles never leave it.
final class HardwareMonitor {
    static let subsystems = ["video4linux", "iio", "drm"]

    private let rig: Rig
    private let settings: DeviceSettings
    private let log: Log
    private let updates: Mailbox<DeviceUpdate>
    private let loop: EventLoop
    private let context: UdevContext
    private let monitor: UdevMonitor
    private var inventory: CameraInventory
    private let sensors: SensorSet
    private var switches: LibInputSwitches?
    private var outputs: OutputTracker
    /// Card nodes whose panel orientations could not be read, already logged.
    private var orientationFailuresLogged: Set<String> = []
    /// The kernel's panel orientations, asked of each card once per appearance (the property
    /// is fixed; the poll never asks).
    private var panelOrientations = PanelOrientationCache()
    /// The EDIDs by `cardK-NAME`, from the last udev-driven scan: reading `edid` waits on the
    /// kernel's mode-config lock, which a compositor probing an output holds, so the poll does
    /// not ask again (a panel's EDID changes only with a hotplug, which udev announces).
    private var edids: [String: EDIDIdentity] = [:]
    /// Re-reads the connectors' attributes: a compositor switching an output off or on changes
    /// `enabled` and `dpms` without any uevent.
    private let outputTimer: Timer
    private var outputTimerArmed = false
    static let outputPoll: Duration = .seconds(2)
    private var presence: PresenceMatcher
    /// Presence inputs read from a platform device's attribute, and their poll tick (armed only
    /// while one of the attributes is there).
    private let attributes: AttributePresence
    private let attributeTimer: Timer
    private var attributeTimerArmed = false
    private let pollTimer: Timer
    /// The period the poll tick runs at; nil while it is not armed.
    private var pollTimerPeriod: Int?
    private let busyTimer: Timer
    private var busyTimerArmed = false
    /// iio-sensor-proxy's orientation of the display accelerometer it holds, while it holds one.
    private var proxyReader: ProxyOrientationReader?
    private let clock = MonotonicClock()
    private let start: MonotonicInstant

    init(rig: Rig, settings: DeviceSettings, log: Log, updates: Mailbox<DeviceUpdate>) throws {
        self.rig = rig
        self.settings = settings
        self.log = log
        self.updates = updates
        loop = try EventLoop()
        context = try UdevContext()
        presence = PresenceMatcher(rig: rig)
        attributes = AttributePresence(rig: rig)
        // USB (platform) devices are watched only for a rig with USB (attribute) presence inputs.
        let usb = rig.presence.contains { !$0.usbIDs.isEmpty }
        monitor = try UdevMonitor(context, subsystems: Self.subsystems + (usb ? ["usb"] : []) + (attributes.isEmpty ? [] : ["platform"]))
        inventory = CameraInventory(rig: rig, loopback: settings.loopback)
        sensors = SensorSet(rig: rig, log: log, pollFloorMilliseconds: settings.sensorPollMilliseconds)
        outputs = OutputTracker(rig: rig)
        pollTimer = try Timer()
        busyTimer = try Timer()
        outputTimer = try Timer()
        attributeTimer = try Timer()
        start = clock.now
    }

    /// Takes the first inventory, reports it, then follows hotplug until `stop` gets a message.
    func run(stop: Mailbox<Bool>) throws {
        let cameraDevices = try UdevEnumerator.devices(context, subsystems: ["video4linux"])
        // Sensor sub-devices first: a capture node a model links to one reads its mounting there.
        let subdevicesFirst = cameraDevices.filter { $0.sysname.hasPrefix("v4l-subdev") } + cameraDevices.filter { !$0.sysname.hasPrefix("v4l-subdev") }
        for device in subdevicesFirst { post(inventory.update(device.record(attributes: UdevRecord.cameraAttributes, model: settings.model), log: log)) }
        // With no video node at all nothing above reconciled: every rig camera is unplugged.
        post(inventory.reconcile())
        updates.post(.cameras(inventory.descriptors))
        for device in try UdevEnumerator.devices(context, subsystems: ["iio"]) {
            addSensor(device.record(attributes: IIOClassifier.attributes, model: settings.model))
        }
        // Switches are read only for a rig that maps one to a hinge: libinput and its glib
        // stack cost about 1.5 MB of resident memory once loaded.
        if !rig.switches.isEmpty { startSwitches() }
        scanOutputs()
        if !presence.isEmpty {
            for device in try UdevEnumerator.devices(context, subsystems: ["usb"]) { postPresence(presence.added(device.record(attributes: []))) }
        }
        if !attributes.isEmpty { postAttributes(attributes.read()) }
        if !settings.locateLoopbacks.isEmpty {
            var found: [String: String] = [:]
            for label in settings.locateLoopbacks { found[label] = LoopbackLocator.find(label: label) }
            updates.post(.loopbacks(asked: settings.locateLoopbacks, found: found))
        }
        updates.post(.inventoryComplete)
        log.info("device inventory: \(ClientText.counted(inventory.descriptors.count, "camera")), sensors \(sensors.isEmpty ? "none" : "in use"), switches \(switches == nil ? "unavailable" : "through libinput seat \(settings.seat)")")
        armBusyRetryIfNeeded()

        try loop.register(monitor.descriptor) { [unowned self] _ in self.receiveHotplug() }
        try loop.register(pollTimer.descriptor) { [unowned self] _ in
            _ = self.pollTimer.acknowledge()
            self.post(self.sensors.poll(atMilliseconds: self.now))
        }
        updatePollTimer()
        try loop.register(busyTimer.descriptor) { [unowned self] _ in
            _ = self.busyTimer.acknowledge()
            self.busyTimerArmed = false
            let (events, stillBusy) = self.inventory.retryBusy(log: self.log)
            self.post(events)
            if !events.isEmpty { self.updates.post(.cameras(self.inventory.descriptors)) }
            if stillBusy { self.armBusyRetryIfNeeded(force: true) }
        }
        try loop.register(outputTimer.descriptor) { [unowned self] _ in
            _ = self.outputTimer.acknowledge()
            self.scanOutputs(udevEvent: false)
        }
        armOutputPoll()
        try loop.register(attributeTimer.descriptor) { [unowned self] _ in
            _ = self.attributeTimer.acknowledge()
            self.postAttributes(self.attributes.poll())
        }
        updateAttributeTimer()
        try loop.register(stop.descriptor) { [unowned self] _ in
            _ = stop.drain()
            self.loop.stop()
        }
        try loop.run()
    }

    private var now: Int {
        let (seconds, attoseconds) = (clock.now - start).components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    private func post(_ events: [InputEvent]) {
        for event in events { updates.post(.input(event)) }
    }

    private func postPresence(_ events: [InputEvent]) {
        for line in presence.describe(events) { log.info(line) }
        post(events)
    }

    private func postAttributes(_ read: (events: [InputEvent], notes: [String])) {
        for line in read.notes { log.info(line) }
        for line in attributes.describe(read.events) { log.info(line) }
        post(read.events)
        updateAttributeTimer()
    }

    /// Every `AttributePresence.pollPeriod` while an attribute is there; no wake-up otherwise
    /// (a kernel without it, as every stock kernel today).
    private func updateAttributeTimer() {
        let wanted = attributes.anyReadable
        guard wanted != attributeTimerArmed else { return }
        if wanted {
            let period = AttributePresence.pollPeriod
            attributeTimerArmed = (try? attributeTimer.schedule(after: period, repeating: period)) != nil
        } else {
            attributeTimer.cancel()
            attributeTimerArmed = false
        }
    }

    private func startSwitches() {
        do {
            let switches = try LibInputSwitches(context, seat: settings.seat)
            try loop.register(switches.descriptor) { [unowned self] _ in self.drainSwitches() }
            self.switches = switches
            drainSwitches()
        } catch {
            log.notice("\(error); lid and tablet-mode switches are not followed")
        }
    }

    private func drainSwitches() {
        guard let switches else { return }
        do {
            for event in try switches.drain() {
                switch event {
                case let .switchDevice(name, lid, tabletMode):
                    log.info("switch device \"\(name)\": \([lid ? "SW_LID" : nil, tabletMode ? "SW_TABLET_MODE" : nil].compactMap { $0 }.joined(separator: ", ").nonEmpty ?? "no switch libinput trusts")")
                case let .toggled(which, on):
                    if which == .lid { sensors.lidClosed = on } else { sensors.tabletModeOn = on }
                    updates.post(.input(SwitchTranslation.event(which, on: on)))
                    // Handing back to the sensor: read it now, not a poll interval later.
                    if !on { post(sensors.poll(atMilliseconds: now)) }
                }
            }
        } catch {
            log.warning("\(error)")
        }
    }

    private func receiveHotplug() {
        while let device = monitor.receive() {
            let action = device.action ?? "change"
            switch (device.subsystem, action) {
            case ("video4linux", "remove"):
                post(inventory.remove(syspath: device.syspath, log: log))
            case ("video4linux", "add"), ("video4linux", "change"), ("video4linux", "bind"):
                post(inventory.update(device.record(attributes: UdevRecord.cameraAttributes, model: settings.model), log: log))
                armBusyRetryIfNeeded()
            case ("drm", _):
                // Hotplug and property changes come on the card (HOTPLUG=1), connectors come
                // and go with MST: every connector is read again. A card removed is asked its
                // panel orientations again when it comes back.
                if action == "remove", ConnectorRecord.split(sysname: device.sysname) == nil {
                    panelOrientations.forget(sysname: device.sysname)
                }
                scanOutputs()
                armOutputPoll()
                continue
            case ("iio", "remove"):
                post(removeSensor(device.syspath))
                continue
            case ("iio", "add"), ("iio", "change"):
                _ = removeSensor(device.syspath)
                addSensor(device.record(attributes: IIOClassifier.attributes, model: settings.model))
                continue
            case ("usb", "remove"):
                postPresence(presence.removed(syspath: device.syspath))
                continue
            case ("usb", "add"), ("usb", "bind"):
                postPresence(presence.added(device.record(attributes: [])))
                continue
            case ("platform", _):
                // The driver (re)bound or went: its attribute is read again, now.
                if attributes.devices.contains(device.sysname) { postAttributes(attributes.read(device: device.sysname)) }
                continue
            default:
                continue
            }
            updates.post(.cameras(inventory.descriptors))
        }
    }

    /// Reads the DRM connectors and posts each display's output that changed. Without any DRM
    /// card nothing is posted: outputs stay `unknown` (docs/model.md, "Outputs"). A new card's
    /// panel orientations and the EDIDs are read only on udev events (`udevEvent`).
    private func scanOutputs(udevEvent: Bool = true) {
        guard outputs.watches else { return }
        do {
            var scan = try DRMConnectors.scan(
                context, readEDID: udevEvent && outputs.readsEDID, orientationOf: outputs.orientationNeeded,
                cache: &panelOrientations, readCards: udevEvent)
            if udevEvent {
                edids = [:]
                for connector in scan.connectors { edids["\(connector.card)-\(connector.name)"] = connector.edid }
            } else {
                for index in scan.connectors.indices {
                    scan.connectors[index].edid = edids["\(scan.connectors[index].card)-\(scan.connectors[index].name)"]
                }
            }
            outputsSeen = scan.cardsSeen
            for node in scan.droppedMaster {
                log.info("\(node): opening it made foldcamd DRM master (no compositor holds the card); dropped at once")
            }
            for (node, error) in scan.failures.sorted(by: { $0.key < $1.key }) where orientationFailuresLogged.insert(node).inserted {
                log.notice("\(node): \(error); the kernel's panel orientation is not read (give the displays a \"mountRotation\" in the rig if a panel is mounted turned)")
            }
            let (events, notes) = outputs.update(scan.connectors, cardsSeen: scan.cardsSeen)
            for note in notes { log.notice(note) }
            post(events)
        } catch {
            log.warning("DRM connectors: \(error); display outputs are not followed until the next hotplug event")
        }
    }

    /// Whether the last scan saw a DRM card: only then is there anything to poll.
    private var outputsSeen = false

    /// Every `outputPoll` while the rig names outputs and a DRM card exists; no wake-up otherwise.
    private func armOutputPoll() {
        guard outputs.watches, outputsSeen, !outputTimerArmed else { return }
        outputTimerArmed = (try? outputTimer.schedule(after: Self.outputPoll, repeating: Self.outputPoll)) != nil
    }

    /// The poll tick runs only while some sensor is polled, at the fastest rate a polled sensor
    /// wants (its sampling frequency, never faster than `sensorPollMilliseconds`): with buffered
    /// sensors (or none) an idle daemon makes no periodic wake-up here.
    private func updatePollTimer() {
        let wanted = sensors.pollMilliseconds
        guard wanted != pollTimerPeriod else { return }
        if let wanted {
            let period = Duration.milliseconds(wanted)
            pollTimerPeriod = (try? pollTimer.schedule(after: period, repeating: period)) != nil ? wanted : nil
        } else {
            pollTimer.cancel()
            pollTimerPeriod = nil
        }
    }

    /// Starts using an IIO device; a sensor whose driver delivers samples on a descriptor joins
    /// the loop.
    private func addSensor(_ record: UdevRecord) {
        defer { updatePollTimer() }
        post(sensors.add(record, atMilliseconds: now))
        startProxyReaderIfShared()
        guard let descriptor = sensors.descriptor(record.syspath) else { return }
        do {
            try loop.register(descriptor) { [unowned self] _ in
                let (events, vanished) = self.sensors.readReady(record.syspath, atMilliseconds: self.now)
                self.post(events)
                // Gone: stop watching now (a dead descriptor stays readable), fall back at once.
                if vanished { self.post(self.removeSensor(record.syspath)) }
            }
        } catch {
            log.warning("\(record.syspath): cannot watch its descriptor (\(error)); the sensor is not used")
            post(sensors.remove(syspath: record.syspath))
        }
    }

    private func removeSensor(_ syspath: String) -> [InputEvent] {
        // Stop watching before the driver closes its descriptor.
        if let descriptor = sensors.descriptor(syspath) { loop.unregister(descriptor) }
        defer { updatePollTimer() }
        let events = sensors.remove(syspath: syspath)
        return events + (sensors.proxyAccelerometer == nil ? stopProxyReader() : [])
    }

    /// Where iio-sensor-proxy holds the display accelerometer, its orientation is asked of it
    /// over D-Bus (a rotation hint for when foldcam's own reads of it fail).
    private func startProxyReaderIfShared() {
        guard proxyReader == nil, let shared = sensors.proxyAccelerometer else { return }
        let reader: ProxyOrientationReader
        do {
            reader = try ProxyOrientationReader(sensor: shared.sensor, log: log)
            try loop.register(reader.descriptor) { [unowned self] _ in self.readProxy() }
        } catch {
            log.notice("iio-sensor-proxy's accelerometer orientation is not used: \(error)")
            return
        }
        proxyReader = reader
        log.info("accelerometer \(rig.accelerometers[shared.sensor].id): iio-sensor-proxy's orientation followed over D-Bus (a rotation hint while foldcam's own reads give nothing)")
        readProxy()
    }

    private func readProxy() {
        guard let reader = proxyReader else { return }
        do {
            post(try reader.readReady())
        } catch {
            log.warning("iio-sensor-proxy's connection failed (\(error)); its accelerometer orientation is withdrawn")
            post(stopProxyReader())
        }
    }

    private func stopProxyReader() -> [InputEvent] {
        guard let reader = proxyReader else { return [] }
        loop.unregister(reader.descriptor)
        proxyReader = nil
        return [.accelerometerOrientation(sensor: reader.sensor, orientation: .undefined)]
    }

    private func armBusyRetryIfNeeded(force: Bool = false) {
        let anyBusy = inventory.entries.values.contains { if case .busy = $0.entry { return true } else { return false } }
        guard anyBusy, force || !busyTimerArmed else { return }
        busyTimerArmed = (try? busyTimer.schedule(after: .milliseconds(settings.busyRetryMilliseconds))) != nil
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
