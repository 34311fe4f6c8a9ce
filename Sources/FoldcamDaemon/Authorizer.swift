import FoldcamPlatform

/// Who may change state over the socket: root, the daemon's own user, and members of the
/// configured group. Reads are for anyone who can connect.
struct Authorizer {
    var daemonUID: UInt32
    var groupID: UInt32?
    var groupName: String?

    func mayChange(_ credentials: PeerCredentials?) -> Bool {
        guard let credentials else { return false }
        if credentials.uid == 0 || credentials.uid == daemonUID { return true }
        guard let groupID else { return false }
        return credentials.gid == groupID || credentials.groups.contains(groupID)
    }

    var rule: String {
        groupName.map { "root, the daemon's user or members of group \($0)" } ?? "root or the daemon's user (no group configured)"
    }
}
