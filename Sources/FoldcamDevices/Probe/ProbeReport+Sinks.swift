import FoldcamCore

extension ProbeReport {
    /// The configured sinks and what `--probe` can tell of each. The loopback is a device here;
    /// PipeWire nodes live in users' sessions, which a system program cannot see: only a
    /// running foldcamd hears of them, from its companions (`foldcamctl status`).
    var sinkLines: [String] {
        sinks.map { sink in
            switch sink {
            case .loopback:
                let found = cameras.compactMap { camera -> String? in
                    guard case let .skipped(reason) = camera.entry, reason.hasPrefix(CameraClassifier.ownLoopbackReason) else { return nil }
                    return camera.node
                }
                return "loopback: " + (found.isEmpty
                    ? "no v4l2loopback device of foldcam's is present (load v4l2loopback as docs/install.md says)"
                    : "foldcamd feeds \(found.joined(separator: ", "))")
            case .pipewire:
                let matched = rig.cameras.filter { $0.pipewire != nil }.map(\.id)
                return "pipewire: foldcam-pipewire publishes the nodes in each user's session, where --probe cannot look; foldcamctl status shows what the companions report"
                    + (matched.isEmpty ? "; no rig camera has a \"pipewire\" match, so the nodes can only show \"camera unavailable\"" : " (rig cameras matched to PipeWire nodes: \(matched.joined(separator: ", ")))")
            }
        }
    }

    /// A rig camera with no V4L2 node that a PipeWire node may still be (a libcamera camera):
    /// not lacking when the PipeWire sink runs, and said so; nil for any other camera.
    func pipeWireCameraNeed(_ camera: Camera, property: String) -> Need? {
        guard let match = camera.pipewire, sinks.contains(.pipewire) else { return nil }
        let keys = match.requirements.map { "\($0.property)=\($0.value)" }.joined(separator: ", ")
        return Need(kind: .camera, id: camera.id, status: .missing, needed: false, property: property,
                    detail: "no video4linux node has \(property); through PipeWire it is the node with \(keys), which foldcam-pipewire looks for in each user's session (foldcamctl status: \"in PipeWire\")")
    }
}
