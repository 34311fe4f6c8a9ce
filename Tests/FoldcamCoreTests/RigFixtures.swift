import FoldcamCore

/// Rig JSON built to size, for the tests of limits and of work that grows with the input.
enum RigFixtures {
    static func camera(_ id: String, _ face: String) -> String {
        #"{"id": "\#(id)", "face": "\#(face)", "formats": [{"pixelFormats": ["NV12"], "width": 1280, "height": 720, "fps": 30}]}"#
    }

    /// A straight chain of `hinges` hinges (panels p0 … pN), one display on p0.A.
    static func chain(hinges: Int, cameras: [String]? = nil, postures: String? = nil, extra: String = "") -> String {
        var panels = [#"{"id": "p0"}"#]
        for index in stride(from: 1, through: hinges, by: 1) {
            panels.append(#"{"id": "p\#(index)", "parent": "p\#(index - 1)", "hinge": {"id": "h\#(index)", "axis": [0, -1, 0], "range": [0, 360]}}"#)
        }
        let cameraList = cameras ?? [camera("front", "p0.A"), camera("tip", "p\(hinges).A")]
        return """
            {"id": "chain", "panels": [\(panels.joined(separator: ", "))],
             "displays": [{"id": "main", "faces": ["p0.A"]}],
             "cameras": [\(cameraList.joined(separator: ", "))],
             "postures": \(postures ?? #"[{"id": "any", "ranges": {}, "display": "main"}]"#)\(extra)}
            """
    }

    /// One hinge `fold` over [0, 360] and the given postures (`ranges` objects as JSON text).
    static func oneHinge(postures ranges: [String]) -> String {
        let postures = ranges.enumerated().map { #"{"id": "p\#($0.offset)", "ranges": \#($0.element), "display": "main"}"# }
        return """
            {"id": "one", "panels": [{"id": "left"}, {"id": "right", "parent": "left",
              "hinge": {"id": "fold", "axis": [0, -1, 0], "range": [0, 360]}}],
             "displays": [{"id": "main", "faces": ["left.A"]}],
             "cameras": [\(camera("cam", "left.A"))],
             "postures": [\(postures.joined(separator: ", "))]}
            """
    }

    static func errors(_ text: String) -> [String] {
        do {
            _ = try RigDecoder.decode(json: text)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }
}

/// Wall time of `body`, for bounds that only an algorithmic blow-up can break.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
