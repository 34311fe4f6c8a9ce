/// Which PipeWire camera node is a rig camera (`cameras[].pipewire` in a rig file): the PipeWire
/// companion consumes that node when foldcamd decides on the camera (docs/pipewire.md). Every
/// given key must match the node's property; at least one key is given.
public struct PipeWireMatch: Sendable, Equatable {
    /// `node.name`, e.g. `libcamera_input.\_SB_.PCI0-2.1` or a test source's name.
    public var nodeName: String?
    /// `api.libcamera.location` (`front`, `back`, `external`), for libcamera cameras.
    public var libcameraLocation: String?
    /// `api.v4l2.path` (`/dev/video0`), for cameras WirePlumber's V4L2 monitor publishes.
    public var v4l2Path: String?

    public init(nodeName: String? = nil, libcameraLocation: String? = nil, v4l2Path: String? = nil) {
        self.nodeName = nodeName
        self.libcameraLocation = libcameraLocation
        self.v4l2Path = v4l2Path
    }

    /// The node property each given key compares with.
    public var requirements: [(property: String, value: String)] {
        [("node.name", nodeName), ("api.libcamera.location", libcameraLocation), ("api.v4l2.path", v4l2Path)]
            .compactMap { pair in pair.1.map { (pair.0, $0) } }
    }

    /// Whether a node with `properties` is this camera.
    public func matches(_ properties: [String: String]) -> Bool {
        let requirements = requirements
        return !requirements.isEmpty && requirements.allSatisfy { properties[$0.property] == $0.value }
    }

    static let keys = ["nodeName", "libcameraLocation", "v4l2Path"]

    static func decode(_ cursor: JSONCursor) -> PipeWireMatch? {
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(keys)
        func text(_ key: String) -> String? {
            guard let field = cursor.field(key), let value = field.string() else { return nil }
            if value.isEmpty { field.collector.add(field.path, "must not be empty") }
            return value.isEmpty ? nil : value
        }
        let match = PipeWireMatch(nodeName: text("nodeName"), libcameraLocation: text("libcameraLocation"), v4l2Path: text("v4l2Path"))
        if match.requirements.isEmpty && keys.allSatisfy({ cursor.field($0) == nil }) {
            cursor.collector.add(cursor.path, "names no PipeWire node: give \"nodeName\", \"libcameraLocation\" or \"v4l2Path\"")
        }
        return match
    }
}
