import FoldcamCore

/// What the device thread tells the daemon's event loop. Only values cross: descriptors and
/// engine inputs, never devices.
public enum DeviceUpdate: Sendable, Equatable {
    /// The full set of cameras present now (replaces the previous set).
    case cameras([CameraDescriptor])
    case input(InputEvent)
    /// Where the loopbacks of `DeviceSettings.locateLoopbacks` are (`LoopbackLocator`, on the
    /// device thread): each asked label's node; a label missing from `found` has none.
    case loopbacks(asked: [String], found: [String: String])
    /// The first inventory (cameras, sensors, switches) is done: the daemon may report ready.
    case inventoryComplete
    /// The device layer could not start or stopped working; the daemon keeps serving the rig's
    /// declared defaults.
    case failed(String)
}

/// The configuration the device layer reads (from `DaemonConfig`).
public struct DeviceSettings: Sendable, Equatable {
    public var seat: String
    public var loopback: CameraClassifier.Loopback
    public var sensorPollMilliseconds: Int
    /// How often busy cameras are probed again.
    public var busyRetryMilliseconds: Int = 2000
    /// The loopback labels to find with the first inventory (`DeviceUpdate.loopbacks`): the
    /// daemon's not yet located ones. Locating opens those nodes, so a loopback already fed is
    /// not asked for again.
    public var locateLoopbacks: [String] = []
    /// The device model chosen for this machine (docs/devices.md): its device entries tag
    /// cameras and sensors as udev rules would.
    public var model: DeviceModel?

    public init(config: DaemonConfig) {
        seat = config.seat
        // Every virtual camera's loopback: none of them is ever a camera of the rig.
        let cameras = config.virtualCameras
        loopback = CameraClassifier.Loopback(labels: cameras.map(\.loopbackLabel), nodes: cameras.compactMap(\.loopbackDevice))
        sensorPollMilliseconds = config.sensorPollMilliseconds
        model = config.model
    }
}
