import FoldcamCore
import FoldcamPlatform

/// A hinge-angle sensor read through its IIO buffer (`/dev/iio:deviceN`): samples arrive on a
/// descriptor instead of being polled. Only for a device whose angle channel can be buffered,
/// never for one-shot reads (`--probe` must not reconfigure the buffer), and never for a device
/// iio-sensor-proxy reads (`SensorSharing`).
final class IIOBufferedHingeDriver: SensorDriver {
    private var channel: HingeChannel
    private let buffer: IIOHingeBuffer
    private let context: SensorContext
    let how: String

    var descriptor: FileDescriptor? { buffer.descriptor }
    /// Never polled: samples wake the device thread when they arrive.
    var pollRate: PollRate? { nil }

    private init(channel: HingeChannel, buffer: IIOHingeBuffer, devnode: String, context: SensorContext) {
        self.channel = channel
        self.buffer = buffer
        self.context = context
        how = "read from its IIO buffer \(devnode)"
    }

    static func discover(_ record: UdevRecord, role: SensorRole, options: SensorOptions) -> Bool {
        guard case .hinge = role, options.mayUseBuffer else { return false }
        return IIOHingeBuffer.available(syspath: record.syspath, devnode: record.devnode)
    }

    static func open(_ record: UdevRecord, role: SensorRole, context: SensorContext) throws(DeviceError) -> any SensorDriver {
        guard case let .hinge(hinge, _) = role, let devnode = record.devnode else { preconditionFailure("opened for a role it did not discover") }
        let channel = try HingeChannel(record, hinge: hinge, rig: context.rig)
        do {
            let buffer = try IIOHingeBuffer(syspath: record.syspath, devnode: devnode)
            return IIOBufferedHingeDriver(channel: channel, buffer: buffer, devnode: devnode, context: context)
        } catch {
            let holder = error.isBusy ? " (another process holds the buffer: an IIO device opens once)" : ""
            context.log.notice("\(error)\(holder); polling the hinge sensor instead of using its buffer")
            throw error
        }
    }

    /// Buffered samples are not polled, not even the first one: they arrive when the device has
    /// them.
    func poll(atMilliseconds now: Int, first: Bool) throws(DeviceError) -> [InputEvent] { [] }

    /// Samples read together arrived together: only the newest matters to the engine (and
    /// without per-sample timestamps their spacing is unknown to the rate check). Forwarded even
    /// while a switch overrides the hinge: the engine prefers the switch and has the latest
    /// reading ready when it turns off. (Only polling rests meanwhile.)
    func readReady(atMilliseconds now: Int) throws(DeviceError) -> [InputEvent] {
        guard let raw = try buffer.read().last else { return [] }
        return channel.accept(raw: Double(raw), now: now, context: context)
    }

    func close() -> [InputEvent] { channel.lost(context) }
}
