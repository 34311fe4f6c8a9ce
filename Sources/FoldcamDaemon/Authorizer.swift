import FoldcamPlatform

/// Who may do what over the socket (docs/security.md). Peers are told apart by SO_PEERCRED:
/// their uid, primary group and supplementary groups at connect time.
///
/// - read: anyone who can connect.
/// - frames: root, the daemon's user, members of the control group, and members of the group
///   that owns the virtual camera's device node — exactly those who could open the camera.
/// - control: root, the daemon's user, members of the control group.
struct Authorizer {
    struct Group: Equatable, Sendable {
        var name: String
        var id: UInt32
    }

    var daemonUID: UInt32
    /// `group` in the config: members may change state (and receive frames).
    var controlGroup: Group?
    /// The group owning the virtual camera's node, and that node (nil without a loopback).
    var cameraGroup: (group: Group, node: String)?

    /// Root, the daemon's own user, or a member of the control group: may do everything and
    /// has connection slots kept for it.
    func isPrivileged(_ credentials: PeerCredentials?) -> Bool {
        guard let credentials else { return false }
        if credentials.uid == 0 || credentials.uid == daemonUID { return true }
        return controlGroup.map { credentials.isMember(of: $0.id) } ?? false
    }

    func permits(_ access: Method.Access, _ credentials: PeerCredentials?) -> Bool {
        switch access {
        case .read: return true
        case .control: return isPrivileged(credentials)
        case .frames:
            if isPrivileged(credentials) { return true }
            guard let credentials, let cameraGroup else { return false }
            return credentials.isMember(of: cameraGroup.group.id)
        }
    }

    /// Why `method` was refused, naming who may call it and the group that grants it.
    func refusal(for method: Method) -> String {
        switch method.access {
        case .read:
            return "\(method.rawValue) is open to every client"
        case .control:
            return "\(method.rawValue) changes state; only \(privilegedDescription) may do that"
        case .frames:
            var who = "root, the daemon's user"
            var groups: [String] = []
            if let cameraGroup { groups.append("\(cameraGroup.group.name) (which owns \(cameraGroup.node))") }
            if let controlGroup { groups.append(controlGroup.name) }
            if !groups.isEmpty { who += " or members of group " + groups.joined(separator: " or ") }
            return "\(method.rawValue) returns camera frames; only \(who) may receive them (join that group to be allowed)"
        }
    }

    /// "root, the daemon's user or members of group foldcam".
    var privilegedDescription: String {
        controlGroup.map { "root, the daemon's user or members of group \($0.name)" } ?? "root or the daemon's user (no group configured)"
    }
}

extension PeerCredentials {
    func isMember(of group: UInt32) -> Bool {
        gid == group || groups.contains(group)
    }
}
