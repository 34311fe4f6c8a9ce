/// The largest inputs foldcam accepts (docs/rig-format.md#limits). Decoding is linear in the
/// input, but validation and the virtual camera plan do work that grows with these counts, so
/// they are capped where a real rig is nowhere near: beyond them a rig is refused with an
/// error naming the limit, instead of costing unbounded time.
public enum RigLimits {
    /// Rig files, daemon configurations and scenario scripts are read whole, up to this size.
    public static let fileBytes = 16 * 1024 * 1024
    /// Panels, so at most `panels - 1` hinges.
    public static let panels = 32
    public static let displays = 16
    public static let cameras = 32
    /// Capture modes of one camera, counting each pixel format of a size and rate.
    public static let modesPerCamera = 256
    public static let postures = 1024
    public static let preferDeviceTypes = 32
    /// JSON nesting, in every document foldcam reads.
    public static let nesting = JSONParser.maximumDepth

    /// What to do about a list that is too long, by field.
    static func advice(_ key: String) -> String {
        switch key {
        case "panels": return "treat parts that never move against each other as one panel"
        case "displays": return "describe only the displays whose viewers foldcam must serve"
        case "cameras": return "describe only the cameras foldcam should choose among"
        case "postures": return "merge postures that use the same display"
        default: return "shorten the list"
        }
    }
}

extension JSONCursor {
    /// An array of at most `limit` elements; a longer one is reported (once) and not decoded.
    func array(limit: Int, kind: String) -> [JSONCursor]? {
        if case let .array(elements) = value, elements.count > limit {
            collector.add(path, "\(elements.count) \(kind), more than the \(limit) foldcam accepts (see Limits in docs/rig-format.md): \(RigLimits.advice(kind))")
            return nil
        }
        return array()
    }
}
