import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// iio-sensor-proxy's view of the display accelerometer it holds, over D-Bus: foldcam claims
/// the accelerometer (the proxy reads it only while someone does), reads
/// `AccelerometerOrientation` and follows its PropertiesChanged signals. Each value becomes an
/// `accelerometerOrientation` input: a gravity hint for rotation that counts only while foldcam's
/// own reads of that accelerometer give nothing. Device thread only; every call is bounded.
final class ProxyOrientationReader {
    static let path = "/net/hadess/SensorProxy"
    static let property = "AccelerometerOrientation"

    let sensor: Int
    private let connection: SystemBusConnection
    private let log: Log
    private var pending: [ProxyOrientation] = []
    /// The proxy (re)appeared on the bus: claim again, outside the signal's dispatch.
    private var needsClaim = false
    private var toldBadValue = false
    private var last: ProxyOrientation?
    var descriptor: FileDescriptor { connection.descriptor }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(sensor: Int, log: Log, timeoutMicroseconds: UInt64 = 1_000_000) throws(Failure) {
        self.sensor = sensor
        self.log = log
        let api: SystemBus
        do { api = try SystemBus() } catch { throw Failure(description: "\(error)") }
        do { connection = try SystemBusConnection.open(api, deadline: .init(microseconds: timeoutMicroseconds)) } catch { throw Failure(description: "\(error)") }
        do {
            try connection.addMatch("type='signal',sender='\(SensorProxyStatus.busName)',path='\(Self.path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='\(SensorProxyStatus.busName)'") { [unowned self] message in
                self.changed(message)
            }
            try connection.addMatch("type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(SensorProxyStatus.busName)'") { [unowned self] message in
                self.ownerChanged(message)
            }
            try claimAndRead(timeoutMicroseconds: timeoutMicroseconds)
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// The bus socket became readable: the orientations that arrived, oldest first.
    func readReady() throws(SystemBus.Failure) -> [InputEvent] {
        try connection.process()
        if needsClaim {
            needsClaim = false
            do { try claimAndRead(timeoutMicroseconds: 1_000_000) } catch { log.warning("iio-sensor-proxy came back but did not answer: \(error); its accelerometer orientation is not used") }
        }
        defer { pending = [] }
        return pending.map { .accelerometerOrientation(sensor: sensor, orientation: $0) }
    }

    private func claimAndRead(timeoutMicroseconds: UInt64) throws(SystemBus.Failure) {
        let deadline = SystemBusConnection.Deadline(microseconds: timeoutMicroseconds)
        _ = try connection.call(SensorProxyStatus.busName, Self.path, SensorProxyStatus.busName, "ClaimAccelerometer", deadline: deadline)
        let reply = try connection.call(SensorProxyStatus.busName, Self.path, "org.freedesktop.DBus.Properties", "Get", arguments: [SensorProxyStatus.busName, Self.property], deadline: deadline)
        guard try reply.enter("v", "s") else { return }
        accept(try reply.readString())
        try reply.exit()
    }

    /// PropertiesChanged (s interface, a{sv} changed, as invalidated).
    private func changed(_ message: SystemBusConnection.Message) {
        do {
            guard try message.readString() == SensorProxyStatus.busName, try message.enter("a", "{sv}") else { return }
            while try message.enter("e", "sv") {
                if try message.readString() == Self.property, try message.enter("v", "s") {
                    accept(try message.readString())
                    try message.exit()
                } else {
                    try message.skip("v")
                }
                try message.exit()
            }
            try message.exit()
        } catch {
            log.warning("iio-sensor-proxy sent a PropertiesChanged foldcam cannot read (\(error)); ignored")
        }
    }

    /// NameOwnerChanged (s name, s old owner, s new owner): gone withdraws the hint, back claims.
    private func ownerChanged(_ message: SystemBusConnection.Message) {
        guard let name = try? message.readString(), name == SensorProxyStatus.busName,
              (try? message.readString()) != nil, let newOwner = try? message.readString() else { return }
        if newOwner.isEmpty {
            log.notice("iio-sensor-proxy left the system bus: its accelerometer orientation is withdrawn")
            pending.append(.undefined)
        } else {
            needsClaim = true
        }
    }

    private func accept(_ text: String) {
        do {
            let orientation = try ProxyOrientation(parsing: text)
            if orientation != last { log.info("iio-sensor-proxy: accelerometer orientation \(orientation.rawValue)") }
            last = orientation
            pending.append(orientation)
        } catch {
            guard !toldBadValue else { return }
            toldBadValue = true
            log.warning("iio-sensor-proxy's \(error); foldcam ignores such values")
        }
    }
}
