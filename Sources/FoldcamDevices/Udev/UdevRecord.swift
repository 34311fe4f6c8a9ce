/// What udev knows about one device, as plain values: the input of every classifier, and what
/// tests build by hand from recorded `udevadm info` output.
public struct UdevRecord: Sendable, Equatable {
    public var syspath: String
    public var sysname: String
    public var subsystem: String
    public var devnode: String?
    public var properties: [String: String]
    /// The sysfs attributes copied at enumeration (`name`, `index`, ...).
    public var attributes: [String: String]

    public init(syspath: String, sysname: String, subsystem: String, devnode: String?, properties: [String: String], attributes: [String: String] = [:]) {
        self.syspath = syspath
        self.sysname = sysname
        self.subsystem = subsystem
        self.devnode = devnode
        self.properties = properties
        self.attributes = attributes
    }

    /// The device node if there is one, else the sysfs path: how errors and logs name it.
    public var displayName: String { devnode ?? syspath }

    /// Sysfs attributes each subsystem's classifier reads.
    public static let cameraAttributes = ["name", "index"]
    public static let iioAttributes = ["name"]
}
