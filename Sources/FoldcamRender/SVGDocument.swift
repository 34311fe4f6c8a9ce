/// SVG text building by plain string appends, so the render target needs no Foundation.
/// Coordinates are pixels; numbers are written with at most two decimals to keep files small
/// and byte-stable across platforms.
struct SVGDocument {
    /// A 2D point in picture pixels (y down).
    struct Point: Equatable {
        var x: Double
        var y: Double
    }

    let width: Double
    let height: Double
    private var body: String = ""
    private var depth = 1

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// One self-closing element, or one with escaped text content.
    mutating func element(_ name: String, _ attributes: [(String, String)], text: String? = nil) {
        var line = indentation + "<" + name + Self.attributeText(attributes)
        if let text {
            line += ">" + Self.escape(text) + "</" + name + ">"
        } else {
            line += "/>"
        }
        body += line + "\n"
    }

    /// Opens a group; every `open` needs a `close`.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        body += indentation + "<" + name + Self.attributeText(attributes) + ">\n"
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        body += indentation + "</" + name + ">\n"
    }

    /// Raw markup (for `<defs>` written by hand); the caller keeps it well formed.
    mutating func raw(_ markup: String) {
        body += markup
    }

    mutating func polygon(_ points: [Point], _ attributes: [(String, String)]) {
        element("polygon", [("points", Self.pointList(points))] + attributes)
    }

    mutating func line(from a: Point, to b: Point, _ attributes: [(String, String)]) {
        element("line", [("x1", Self.number(a.x)), ("y1", Self.number(a.y)), ("x2", Self.number(b.x)), ("y2", Self.number(b.y))] + attributes)
    }

    mutating func circle(at centre: Point, radius: Double, _ attributes: [(String, String)]) {
        element("circle", [("cx", Self.number(centre.x)), ("cy", Self.number(centre.y)), ("r", Self.number(radius))] + attributes)
    }

    mutating func text(_ content: String, at point: Point, _ attributes: [(String, String)]) {
        element("text", [("x", Self.number(point.x)), ("y", Self.number(point.y))] + attributes, text: content)
    }

    /// The complete document.
    var text: String {
        let size = "width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\""
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" \(size) font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
            + body
            + "</svg>\n"
    }

    private var indentation: String { String(repeating: "  ", count: depth) }

    static func attributeText(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
    }

    static func pointList(_ points: [Point]) -> String {
        points.map { number($0.x) + "," + number($0.y) }.joined(separator: " ")
    }

    /// XML-escapes text and attribute values (rig ids and names come from user files).
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    static func number(_ value: Double) -> String { NumberText.compact(value) }
}
