/// The picture's colours, shared by the drawing and its key so the two cannot disagree.
enum Palette {
    static let faceA = "#b9d4f2"
    static let faceB = "#f6d3a1"
    static let screenA = "#2f5f96"
    static let screenB = "#9a5f1c"
    static let screenOccluded = "#8c8c8c"
    static let outline = "#2b2b2b"
    static let camera = "#b4156f"
    static let cameraUnavailable = "#9a9a9a"
    static let hingeAxis = "#16803c"
    static let hidden = "#7a7a7a"
    static let text = "#1d1d1d"
    static let frame = "#d6d6d6"

    static func face(_ isA: Bool) -> String { isA ? faceA : faceB }
    static func screen(_ isA: Bool) -> String { isA ? screenA : screenB }

    /// Arrowheads, referenced as `url(#id)` by lines.
    static let markerDefinitions = """
          <defs>
            <marker id="arrow-camera" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" fill="\(camera)"/>
            </marker>
            <marker id="arrow-hidden" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" fill="\(hidden)"/>
            </marker>
            <marker id="arrow-axis" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4.5" markerHeight="4.5" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" fill="\(hingeAxis)"/>
            </marker>
          </defs>

        """
}
