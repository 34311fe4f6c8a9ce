/// Whether iio-sensor-proxy runs: it owns `net.hadess.SensorProxy` on the system bus. Then it
/// reads the accelerometers udev tagged for it (`IIO_SENSOR_PROXY_TYPE`), and foldcam must not
/// take their IIO buffers from it (an IIO character device opens once).
public enum SensorProxyStatus: Sendable, Equatable, CustomStringConvertible {
    public static let busName = "net.hadess.SensorProxy"

    case running
    case notRunning
    /// The question could not be asked (no libsystemd, no system bus): treated as not running,
    /// since iio-sensor-proxy cannot serve anyone without the bus either.
    case unknown(reason: String)

    public var isRunning: Bool { self == .running }

    public var description: String {
        switch self {
        case .running: return "running (\(Self.busName) has an owner on the system bus)"
        case .notRunning: return "not running (\(Self.busName) has no owner on the system bus)"
        case let .unknown(reason): return "unknown (\(reason)); taken as not running"
        }
    }

    /// Asks the system bus now (a blocking round trip of at most a second).
    public static func lookUp() -> SensorProxyStatus {
        let bus: SystemBus
        do { bus = try SystemBus() } catch { return .unknown(reason: "\(error)") }
        do {
            return try bus.nameHasOwner(busName) ? .running : .notRunning
        } catch {
            // No bus socket: nothing can be on it, iio-sensor-proxy included.
            if error.errno == .noEntry || error.errno == .connectionRefused { return .notRunning }
            return .unknown(reason: "\(error)")
        }
    }
}
