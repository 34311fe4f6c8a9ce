/// PipeWire before 1.1.81 (Debian 12 has 0.3.65) names libcamera's 24- and 32-bit RGB formats
/// the wrong way round: libcamera's are DRM fourccs, little-endian (`BGR888` lies in memory as
/// R, G, B), SPA's are byte orders, and its libcamera plugin mapped `BGR888` to SPA `BGR`.
/// Every consumer of such a node then sees red and blue swapped. PipeWire fixed the mapping in
/// 1.1.81 ("spa: libcamera: fix RGB mappings", b3ff29326). Seen in the e2e guest: vimc's test
/// pattern "100% Blue" arrives as SPA `BGR` bytes 12, 12, 210 (checks/94-pipewire-libcamera.sh).
public enum LibcameraColourOrder {
    /// The first PipeWire whose libcamera plugin maps RGB formats right.
    public static let fixedIn = [1, 1, 81]

    /// Whether frames of `node` in RGB or BGR carry red and blue the other way round from what
    /// their format says: a libcamera node served by a PipeWire older than the fix. An unknown
    /// version (empty or unparsable) is taken as fixed.
    public static func swapsRedAndBlue(_ node: CameraNode, pipewireVersion: String) -> Bool {
        guard node.properties["device.api"] == "libcamera" || node.properties["api.libcamera.path"] != nil,
              let version = parse(pipewireVersion) else { return false }
        return version.lexicographicallyPrecedes(fixedIn)
    }

    /// "0.3.65" → [0, 3, 65]; nil unless three dot-separated numbers lead it.
    static func parse(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", maxSplits: 2).map { $0.prefix { $0.isNumber } }
        guard parts.count == 3, let major = Int(parts[0]), let minor = Int(parts[1]), let micro = Int(parts[2]) else { return nil }
        return [major, minor, micro]
    }
}
