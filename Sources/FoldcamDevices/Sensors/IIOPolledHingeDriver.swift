import FoldcamCore
import FoldcamPlatform

/// A hinge-angle sensor polled from sysfs (`in_angl0_raw`), while no switch decides its hinge.
final class IIOPolledHingeDriver: SensorDriver {
    private var channel: HingeChannel
    private let context: SensorContext
    let how = "polled from sysfs"
    var descriptor: FileDescriptor? { nil }

    private init(channel: HingeChannel, context: SensorContext) {
        self.channel = channel
        self.context = context
    }

    static func discover(_ record: UdevRecord, role: SensorRole, options: SensorOptions) -> Bool {
        if case .hinge = role { return true }
        return false
    }

    static func open(_ record: UdevRecord, role: SensorRole, context: SensorContext) throws(DeviceError) -> any SensorDriver {
        guard case let .hinge(hinge, _) = role else { preconditionFailure("opened for a role it did not discover") }
        return IIOPolledHingeDriver(channel: try HingeChannel(syspath: record.syspath, hinge: hinge, rig: context.rig), context: context)
    }

    func poll(atMilliseconds now: Int, first: Bool) throws(DeviceError) -> [InputEvent] {
        if first { channel.reset() }
        guard !context.switchOverrides(channel.hinge) else {
            // Resting: the next reading starts fresh (the hinge may have moved a lot meanwhile).
            channel.reset()
            return []
        }
        guard let raw = try SysfsAttributes.number(channel.syspath, ["in_angl0_raw"]) else {
            throw .failed(SystemCallError("read in_angl0_raw", .noEntry, subject: channel.syspath))
        }
        return channel.accept(raw: raw, now: now, context: context)
    }

    func readReady(atMilliseconds now: Int) throws(DeviceError) -> [InputEvent] { [] }

    func close() -> [InputEvent] { channel.lost(context) }
}
