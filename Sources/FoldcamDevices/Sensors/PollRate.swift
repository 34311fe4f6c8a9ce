/// How often a polled sensor is read: at the sensor's own sampling frequency when its IIO
/// device publishes one (reading faster only returns the same sample again), never faster than
/// the configured `sensorPollMilliseconds`, the floor.
public struct PollRate: Sendable, Equatable {
    /// The period of the poll tick.
    public let milliseconds: Int
    /// The device's sampling frequency in Hz; nil when it publishes none (or not a positive one).
    public let samplingHertz: Double?
    /// True when the period is the sensor's own; false when the floor (or no frequency) set it.
    public let followsSensor: Bool

    /// A sensor that claims less than one sample a minute is still read once a minute.
    static let slowestMilliseconds = 60_000

    public init(samplingHertz: Double?, floorMilliseconds: Int) {
        guard let hertz = samplingHertz, hertz.isFinite, hertz > 0 else {
            self.samplingHertz = nil
            milliseconds = floorMilliseconds
            followsSensor = false
            return
        }
        self.samplingHertz = hertz
        let period = min((1000 / hertz).rounded(.up), Double(Self.slowestMilliseconds))
        milliseconds = max(floorMilliseconds, Int(period))
        followsSensor = Int(period) >= floorMilliseconds
    }

    /// Reads the first of `attributes` the device has (`in_angl0_sampling_frequency`, then the
    /// shared `sampling_frequency`, for one). An unreadable or garbage value counts as none.
    static func of(syspath: String, attributes: [String], floorMilliseconds: Int) -> PollRate {
        let hertz = (try? SysfsAttributes.number(syspath, attributes)) ?? nil
        return PollRate(samplingHertz: hertz, floorMilliseconds: floorMilliseconds)
    }

    /// "every 100 ms (its sampling_frequency, 10 Hz)", for the log and `--probe`.
    public var description: String {
        guard let samplingHertz else { return "every \(milliseconds) ms (sensorPollMilliseconds; the device publishes no sampling_frequency)" }
        let hertz = samplingHertz == samplingHertz.rounded() ? String(Int(samplingHertz)) : String(samplingHertz)
        if followsSensor { return "every \(milliseconds) ms (its sampling_frequency, \(hertz) Hz)" }
        return "every \(milliseconds) ms (sensorPollMilliseconds; its sampling_frequency, \(hertz) Hz, is faster)"
    }
}
