import FoldcamCore

/// Left-aligned columns separated by two spaces; the header row is upper case.
struct TextTable {
    var rows: [[String]]

    init(header: [String]) {
        rows = [header]
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render(indent: String = "") -> String {
        let widths = (0..<(rows.map(\.count).max() ?? 0)).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { row in
            var line = indent
            for (column, cell) in row.enumerated() {
                line += cell
                if column < row.count - 1 { line += String(repeating: " ", count: widths[column] - cell.count + 2) }
            }
            return line
        }.joined(separator: "\n")
    }
}

/// Small renderings shared by the subcommands.
enum Describe {
    static func list(_ value: JSONValue?) -> String {
        guard case let .array(items)? = value, !items.isEmpty else { return "-" }
        return items.compactMap(\.stringValue).joined(separator: ", ")
    }

    static func number(_ value: JSONValue?) -> String {
        switch value {
        case let .int(number)?: return String(number)
        case let .double(number)?: return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        default: return "?"
        }
    }

    static func hinges(_ value: JSONValue?) -> String {
        guard case let .object(members)? = value, !members.isEmpty else { return "none" }
        return members.map { "\($0.0) \(number($0.1))°" }.joined(separator: ", ")
    }

    static func format(_ value: JSONValue?) -> String {
        guard let value, value != .null else { return "no format" }
        return "\(value["pixelFormat"]?.stringValue ?? "?") \(number(value["width"]))x\(number(value["height"])) @ \(number(value["fps"])) fps"
    }

    static func virtualCamera(_ value: JSONValue?) -> String {
        guard let value else { return "?" }
        guard let source = value["source"]?.stringValue else {
            return "none" + (value["reason"]?.stringValue.map { " (\($0))" } ?? "")
        }
        return "\(source), \(format(value["format"]))"
    }

    /// The status lines for the virtual cameras: one camera as "virtual camera" and
    /// "readiness"; several (`cameras` in both values) as one line each, by id.
    static func virtualCameras(_ value: JSONValue?, readiness ready: JSONValue?) -> [String] {
        guard case let .array(cameras)? = value?["cameras"], case let .array(states)? = ready?["cameras"] else {
            return ["virtual camera  \(virtualCamera(value))", "readiness       \(readiness(ready))"]
        }
        return cameras.map { camera in
            let id = camera["id"]?.stringValue ?? "?"
            let state = states.first { $0["id"] == camera["id"] }
            return "virtual camera  \(id): \(virtualCamera(camera)); \(readiness(state))\(sharing(state))"
        }
    }

    /// "; fed from outer's outer-front", "; outer-front shared with viewed", "; keeps
    /// outer-front open for viewed" (a physical camera two virtual cameras need is opened once:
    /// docs/virtual-camera.md, "One camera, two virtual cameras").
    static func sharing(_ state: JSONValue?) -> String {
        var parts: [String] = []
        if let feed = state?["feed"], let camera = feed["camera"]?.stringValue {
            if let host = feed["hostedBy"]?.stringValue { parts.append("fed from \(host)'s \(camera)") }
            if feed["sharedWith"] != nil { parts.append("\(camera) shared with \(list(feed["sharedWith"]))") }
        }
        if case let .array(hosted)? = state?["hosts"] {
            for entry in hosted { parts.append("keeps \(entry["camera"]?.stringValue ?? "?") open for \(list(entry["for"]))") }
        }
        return parts.map { "; \($0)" }.joined()
    }

    static func readiness(_ value: JSONValue?) -> String {
        guard let state = value?["state"]?.stringValue else { return "?" }
        return value?["reason"]?.stringValue.map { "\(state) (\($0))" } ?? state
    }

    /// "yes", "no", or the part a presence input covers: "part (bottom.A: x 0 y 0.5 w 1 h 0.5)".
    static func occluded(_ display: JSONValue) -> String {
        guard case let .array(parts)? = display["covered"], !parts.isEmpty else { return yesNo(display["occluded"]) }
        let named = parts.map { part in
            "\(part["face"]?.stringValue ?? "?"): x \(number(part["x"])) y \(number(part["y"])) w \(number(part["width"])) h \(number(part["height"]))"
        }
        return "part (\(named.joined(separator: "; ")))"
    }

    static func yesNo(_ value: JSONValue?) -> String {
        value == .bool(true) ? "yes" : "no"
    }

    /// "inner (pinned)" or "inner (by posture)".
    static func viewed(_ viewed: JSONValue?, pinned: JSONValue?) -> String {
        let name = viewed?.stringValue ?? "?"
        if let pinned = pinned?.stringValue { return pinned == name ? "\(name) (pinned)" : "\(name) (pinned: \(pinned))" }
        return "\(name) (by posture)"
    }

    /// The displays of a `directions` topic value as a table.
    static func displaysTable(_ directions: JSONValue) -> String {
        var table = TextTable(header: ["DISPLAY", "VIEWED", "OCCLUDED", "ROTATION", "FORWARD", "BACKWARD"])
        let viewed = directions["viewedDisplay"]?.stringValue
        if case let .object(displays)? = directions["displays"] {
            for (id, display) in displays {
                table.add([id, id == viewed ? "yes" : "", occluded(display), "\(number(display["screenRotation"]))°",
                           list(display["forward"]), list(display["backward"])])
            }
        }
        return table.render()
    }
}
