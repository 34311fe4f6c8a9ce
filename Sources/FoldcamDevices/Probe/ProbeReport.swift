import FoldcamCore
import FoldcamIO

/// What `foldcamd --probe` found and why each device was classified as it was, like
/// `libinput list-devices`. Plain values: `DeviceProbe` fills it, the renderers print it.
public struct ProbeReport: Sendable {
    public struct CameraNode: Sendable {
        public var node: String
        public var syspath: String
        public var entry: CameraInventory.Entry
        /// The node's udev FOLDCAM_CAMERA, whatever became of it (a tagged node that fails
        /// is reported as that rig camera failing, not as it missing).
        public var taggedAs: String?
    }

    /// A switch device libinput reported, with the switches it trusts.
    public struct SwitchDevice: Sendable {
        public var name: String
        public var lid: Bool
        public var tabletMode: Bool
    }

    public struct Sensor: Sendable {
        public var syspath: String
        public var name: String
        public var outcome: IIOClassifier.Outcome
        /// The first reading, as the engine would get it (nil when reading failed).
        public var reading: InputEvent?
        /// How the daemon would read it: from its IIO buffer (no poll tick), or polled at this rate.
        public var transport: Transport?
        /// Who else reads it ("iio-sensor-proxy (iio-poll-accel)"); nil when foldcam alone does.
        public var sharedWith: String? = nil
    }

    public enum Transport: Sendable, Equatable {
        case buffer
        case polled(PollRate)
    }

    public var rig: Rig
    public var cameras: [CameraNode] = []
    public var sensors: [Sensor] = []
    /// Whether iio-sensor-proxy runs; nil when no IIO device is tagged for it (not asked).
    public var sensorProxy: SensorProxyStatus?
    /// Switch devices libinput reported on the seat, with the switches it trusts.
    public var switches: [String] = []
    public var switchDevices: [SwitchDevice] = []
    public var switchesNote: String?
    /// The DRM connectors, read when the rig names outputs; nil when no DRM card was seen.
    public var connectors: [ConnectorRecord]?
    /// Why panel orientations could not be read, per card node.
    public var orientationNotes: [String] = []
    /// The libinput seat whose switches were listed.
    public var seat = "seat0"
    /// The device model search, when no rig was configured (`ProbeReport+Model.swift`).
    public var modelSelection: ModelSelection?
    /// The sinks foldcamd is configured to feed (`sinks` in foldcam.json).
    public var sinks: [DaemonConfig.SinkKind] = [.loopback]
    /// Model entries (`devices.cameras[0]`) and the device that matched each.
    public var modelFound: [String: String] = [:]

    /// Rig cameras no node answered for (busy ones count as there).
    public var missingRigCameras: [String] {
        let found = Set(cameras.compactMap { camera -> String? in
            switch camera.entry {
            case let .camera(descriptor): return descriptor.rigCamera
            case let .busy(rigCamera?, _): return rig.cameras[rigCamera].id
            default: return nil
            }
        })
        return rig.cameras.map(\.id).filter { !found.contains($0) }
    }
}
