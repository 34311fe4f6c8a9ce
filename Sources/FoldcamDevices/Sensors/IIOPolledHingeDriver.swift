import FoldcamCore
import FoldcamPlatform

/// A hinge-angle sensor polled from sysfs (`in_angl0_raw`, kept open), while no switch decides
/// its hinge, at the device's sampling frequency.
final class IIOPolledHingeDriver: SensorDriver {
    static let samplingFrequencyAttributes = ["in_angl0_sampling_frequency", "in_angl_sampling_frequency", "sampling_frequency"]
    private var channel: HingeChannel
    private let raw: KeptOpenAttribute
    private let context: SensorContext
    private let rate: PollRate
    var pollRate: PollRate? { rate }
    var how: String { "polled from sysfs \(rate.description)" }
    var descriptor: FileDescriptor? { nil }

    private init(channel: HingeChannel, context: SensorContext) {
        self.channel = channel
        self.context = context
        raw = KeptOpenAttribute(syspath: channel.syspath, name: "in_angl0_raw")
        rate = PollRate.of(syspath: channel.syspath, attributes: Self.samplingFrequencyAttributes, floorMilliseconds: context.pollFloorMilliseconds)
    }

    static func discover(_ record: UdevRecord, role: SensorRole, options: SensorOptions) -> Bool {
        if case .hinge = role { return true }
        return false
    }

    static func open(_ record: UdevRecord, role: SensorRole, context: SensorContext) throws(DeviceError) -> any SensorDriver {
        guard case let .hinge(hinge, _) = role else { preconditionFailure("opened for a role it did not discover") }
        return IIOPolledHingeDriver(channel: try HingeChannel(record, hinge: hinge, rig: context.rig), context: context)
    }

    func poll(atMilliseconds now: Int, first: Bool) throws(DeviceError) -> [InputEvent] {
        if first { channel.reset() }
        guard !context.switchOverrides(channel.hinge) else {
            // Resting: the next reading starts fresh (the hinge may have moved a lot meanwhile).
            channel.reset()
            return []
        }
        return channel.accept(raw: try raw.number(), now: now, context: context)
    }

    func readReady(atMilliseconds now: Int) throws(DeviceError) -> [InputEvent] { [] }

    func close() -> [InputEvent] { channel.lost(context) }
}
