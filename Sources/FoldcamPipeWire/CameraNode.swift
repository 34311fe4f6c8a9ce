import FoldcamCore

/// A Video/Source node PipeWire's registry lists: its global id and properties.
public struct CameraNode: Sendable, Equatable {
    public var id: UInt32
    public var properties: [String: String]

    public init(id: UInt32, properties: [String: String]) {
        self.id = id
        self.properties = properties
    }

    /// Parses the shim's "key=value" lines (a value may contain '=').
    public init(id: UInt32, propertyLines: String) {
        var properties: [String: String] = [:]
        for line in propertyLines.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        self.init(id: id, properties: properties)
    }

    public var name: String? { properties["node.name"] }

    /// What a stream's `target.object` names to link to this node: its `object.serial`, unique
    /// in the graph (WirePlumber 0.5.8 gives every V4L2 node of one device the same
    /// `node.name`: vivid's three cameras are all `v4l2_input.platform-vivid.0`), else its name.
    public var target: String? { properties["object.serial"] ?? name }

    /// foldcam's own nodes (never a source of another: that would feed a node with itself).
    public var isFoldcam: Bool { properties[FoldcamNode.virtualCameraKey] != nil }
}

/// The node the companion publishes for one virtual camera.
public enum FoldcamNode {
    /// Marks foldcam's own nodes, with the virtual camera's id.
    public static let virtualCameraKey = "foldcam.virtual-camera"

    /// Stable across restarts: browsers and OBS store it as the device id.
    public static func name(virtualCamera id: String) -> String { "foldcam.\(id)" }

    public static func description(virtualCamera id: String) -> String {
        id == VirtualCameraSpec.defaultID ? "foldcam camera" : "foldcam camera (\(id))"
    }

    /// What makes the node a camera to the portal, libwebrtc and OBS (docs/pipewire.md).
    public static func properties(virtualCamera id: String) -> [(String, String)] {
        [
            ("node.name", name(virtualCamera: id)),
            ("node.description", description(virtualCamera: id)),
            ("media.class", "Video/Source"),
            ("media.role", "Camera"),
            ("media.type", "Video"),
            ("media.category", "Capture"),
            (virtualCameraKey, id),
        ]
    }

    /// The shim's "key=value" lines.
    public static func propertyLines(virtualCamera id: String) -> String {
        properties(virtualCamera: id).map { "\($0.0)=\($0.1)" }.joined(separator: "\n")
    }
}
