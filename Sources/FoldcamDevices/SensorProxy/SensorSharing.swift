/// Who else reads an IIO device, decided from the proxy's status and udev's properties alone
/// (pure). iio-sensor-proxy's udev rules tag each device it reads with `IIO_SENSOR_PROXY_TYPE`
/// (`iio-poll-accel`, `iio-buffer-accel`, ...); while it runs, such a device is shared: foldcam
/// reads it only by polled sysfs reads, which take nothing, and never opens its IIO buffer.
public enum SensorSharing: Sendable, Equatable {
    public static let proxyTypeProperty = "IIO_SENSOR_PROXY_TYPE"

    /// No one else reads it: any driver may.
    case own
    /// iio-sensor-proxy reads it with these drivers (the property's words).
    case sharedWithProxy(types: [String])

    public static func of(properties: [String: String], proxy: SensorProxyStatus) -> SensorSharing {
        guard proxy.isRunning, let value = properties[proxyTypeProperty] else { return .own }
        let types = value.split(separator: " ").map(String.init)
        return types.isEmpty ? .own : .sharedWithProxy(types: types)
    }

    /// Whether a driver may open the device's IIO buffer (`/dev/iio:deviceN`).
    public var mayUseBuffer: Bool { self == .own }

    /// For logs and `--probe`: "iio-sensor-proxy (iio-poll-accel)".
    public var holder: String? {
        guard case let .sharedWithProxy(types) = self else { return nil }
        return "iio-sensor-proxy (\(types.joined(separator: ", ")))"
    }
}
