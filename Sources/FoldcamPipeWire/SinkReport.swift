import FoldcamCore

/// What the companion tells foldcamd about its nodes (`reportSinks`, docs/pipewire.md):
/// foldcamd cannot see the session's PipeWire, so `status`, `state` and the metrics show a
/// node only as reported. A node is `streaming` while a reader consumes it and a camera node is
/// connected to feed it, `unavailable` while a reader sees "camera unavailable" (with why), and
/// `idle` while nobody reads it.
extension PipeWireBridge {
    /// foldcamd's bound on a reason's length, in bytes; longer ones are cut here.
    public static let reportedReasonLimit = 256

    /// The `sinks` param for the nodes `published` (virtual camera ids), in that order.
    public func sinkReport(published: [String]) -> JSONValue {
        .array(published.map { id in
            var members: [(String, JSONValue)] = [("virtualCamera", .string(id)), ("node", .string(FoldcamNode.name(virtualCamera: id)))]
            switch feed(id) {
            case .idle: members.append(("state", .string("idle")))
            case .node: members.append(("state", .string("streaming")))
            case let .unavailable(reason):
                members.append(("state", .string("unavailable")))
                members.append(("reason", .string(Self.cut(ClientText.escaped(reason, limit: Self.reportedReasonLimit)))))
            }
            return .object(members)
        })
    }

    /// The `cameras` param: each rig camera whose PipeWire node the registry lists now, with
    /// that node's name. foldcamd counts such a camera as present: for a camera only libcamera
    /// can drive, this is the only place it is ever seen (docs/pipewire.md).
    public var cameraReport: JSONValue {
        .array(seenCameras.map { .object([("camera", .string($0.camera)), ("node", .string($0.node))]) })
    }

    /// At most `reportedReasonLimit` bytes, cut at a character.
    static func cut(_ text: String) -> String {
        var result = ""
        for character in text {
            guard result.utf8.count + String(character).utf8.count <= reportedReasonLimit else { break }
            result.append(character)
        }
        return result
    }
}
