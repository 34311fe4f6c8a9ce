/// One virtual camera of the configuration (`virtualCameras` in foldcam.json): its id, the
/// display it follows, and the loopback it feeds (docs/virtual-camera.md, "Several virtual
/// cameras"). Without the key the daemon runs one, `VirtualCameraSpec.defaultID`, following
/// the viewed display and fed through the top-level loopbackLabel / loopbackDevice.
public struct VirtualCameraSpec: Sendable, Equatable {
    /// The id of the single camera a configuration without `virtualCameras` has: it names what
    /// it follows.
    public static let defaultID = "viewed"
    /// What `follows` says for "the display being looked at" (pins move it).
    public static let viewed = "viewed"
    /// A bound on how many loopbacks one daemon feeds (each has a capture thread).
    public static let maximumCount = 8

    public var id: String
    /// "viewed" or a display id of the rig.
    public var follows: String
    /// The card label udev lists the loopback under (used when `loopbackDevice` is nil).
    public var loopbackLabel: String
    /// The loopback's node when it is fixed ("/dev/video20").
    public var loopbackDevice: String?

    public init(id: String, follows: String = VirtualCameraSpec.viewed, loopbackLabel: String, loopbackDevice: String? = nil) {
        self.id = id
        self.follows = follows
        self.loopbackLabel = loopbackLabel
        self.loopbackDevice = loopbackDevice
    }

    /// What the camera follows in `rig`; nil when `follows` names no display of it.
    public func follow(in rig: Rig) -> VirtualCameraFollow? {
        if follows == Self.viewed { return .viewed }
        return rig.displayIndex(follows).map { .display($0) }
    }

    /// Each camera's follow target in `rig`, or every `follows` that names no display of it,
    /// with the nearest valid name (a config that was valid for one rig may not be for another).
    public static func resolve(_ specs: [VirtualCameraSpec], rig: Rig) throws(DocumentErrors) -> [VirtualCameraFollow] {
        let valid = [viewed] + rig.displays.map(\.id)
        var errors: [PathError] = []
        var follows: [VirtualCameraFollow] = []
        for (index, spec) in specs.enumerated() {
            if let follow = spec.follow(in: rig) {
                follows.append(follow)
            } else {
                errors.append(PathError(path: "virtualCameras[\(index)].follows", message: "rig \(rig.id) has no display \(ClientText.quoted(spec.follows))\(NearestName.hint(for: spec.follows, among: valid)) (expected one of: \(valid.joined(separator: ", ")))"))
            }
        }
        guard errors.isEmpty else { throw DocumentErrors(errors) }
        return follows
    }

    /// Decodes the `virtualCameras` array; problems go to `collector` with their paths.
    static func decodeList(_ cursor: JSONCursor, collector: ErrorCollector) -> [VirtualCameraSpec] {
        guard let elements = cursor.array() else { return [] }
        if elements.isEmpty { collector.add(cursor.path, "lists no virtual camera (leave the key out for the single default one, or set \"cameraMode\": \"individual\")") }
        if elements.count > maximumCount { collector.add(cursor.path, "lists \(elements.count) virtual cameras; at most \(maximumCount)") }
        var specs: [VirtualCameraSpec] = []
        for element in elements.prefix(maximumCount) where element.isObject() {
            element.checkKeys(["id", "follows", "loopbackLabel", "loopbackDevice"])
            let id = element.field("id")?.string()
            if id == nil && element.field("id") == nil { collector.add(element.path, "needs an \"id\" (e.g. \"front\")") }
            if let id, !validID(id) { collector.add(element.path + ".id", "\(ClientText.quoted(id)) is not a valid id (1 to 64 letters, digits, '-', '_' or '.')") }
            let follows = element.field("follows")?.string() ?? viewed
            if follows.isEmpty { collector.add(element.path + ".follows", "must not be empty (\"viewed\" or a display id)") }
            let label = element.field("loopbackLabel")?.string()
            if label?.isEmpty == true { collector.add(element.path + ".loopbackLabel", "must not be empty") }
            var device: String?
            if let field = element.field("loopbackDevice"), let node = field.string() {
                if node.hasPrefix("/dev/") { device = node } else { collector.add(field.path, "\"\(node)\" is not a device node (expected /dev/videoN)") }
            }
            if element.field("loopbackLabel") == nil && element.field("loopbackDevice") == nil {
                collector.add(element.path, "needs a \"loopbackLabel\" (the v4l2loopback card_label) or a \"loopbackDevice\" (/dev/videoN)")
            }
            guard let id else { continue }
            specs.append(VirtualCameraSpec(id: id, follows: follows, loopbackLabel: label ?? "", loopbackDevice: device))
        }
        for (index, spec) in specs.enumerated() {
            let earlier = specs[..<index]
            if earlier.contains(where: { $0.id == spec.id }) {
                collector.add("virtualCameras[\(index)].id", "\(ClientText.quoted(spec.id)) is used by an earlier virtual camera; ids must be unique")
            }
            if let device = spec.loopbackDevice, earlier.contains(where: { $0.loopbackDevice == device }) {
                collector.add("virtualCameras[\(index)].loopbackDevice", "\(device) is fed by an earlier virtual camera; give each its own loopback (v4l2loopback devices=N)")
            } else if spec.loopbackDevice == nil, !spec.loopbackLabel.isEmpty, earlier.contains(where: { $0.loopbackDevice == nil && $0.loopbackLabel == spec.loopbackLabel }) {
                collector.add("virtualCameras[\(index)].loopbackLabel", "\(ClientText.quoted(spec.loopbackLabel)) is the label of an earlier virtual camera's loopback; give each its own (v4l2loopback card_label=\"A\",\"B\")")
            }
        }
        return specs
    }

    /// Ids appear in topics, logs and command lines: short, no spaces or quotes.
    static func validID(_ id: String) -> Bool {
        (1...64).contains(id.count) && id.unicodeScalars.allSatisfy { $0.isASCII && (($0.properties.isAlphabetic) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
    }
}

/// The display a virtual camera shows the viewer of.
public enum VirtualCameraFollow: Sendable, Equatable, CustomStringConvertible {
    /// Whichever display is viewed (pins move it): the rig's `virtualCamera.follow` displays.
    case viewed
    /// One display, always: the camera shows whoever stands in front of it.
    case display(Int)

    /// The display whose forward cameras feed the camera now.
    public func display(viewed: Int) -> Int {
        switch self {
        case .viewed: viewed
        case let .display(index): index
        }
    }

    public var description: String {
        switch self {
        case .viewed: "viewed"
        case let .display(index): "display \(index)"
        }
    }
}
