import FoldcamCore

/// The benchmark's large rig: 8 panels in a chain (7 hinges), 16 cameras, 6 displays.
///
/// It is generated as a JSON document and decoded with `RigDecoder`, so it is validated exactly
/// like a user's rig file (`foldcam-bench --print-large-rig > large.json` writes it out).
///
/// Geometry: panel k+1 hangs off panel k's right edge on hinge `hk`. Every axis is (0, −1, 0):
/// docs/model.md ties the axis sign to the edge (closing swings the child over the parent's A face),
/// so a zigzag (accordion) fold is expressed with the hinge *ranges* instead of the axis signs:
/// odd hinges (h1, h3, h5, h7) are valley folds, 0–180° (A faces meet when closed); even hinges
/// (h2, h4, h6) are mountain folds, 180–360° (B faces meet when folded back). Flat is 180°
/// everywhere and is the initial angle.
enum LargeRig {
    static let panelCount = 8
    static let sensorRotations = [0, 90, 180, 270]
    static let deviceTypes = ["wide", "ultraWide", "telephoto", "wide"]

    static func panelID(_ number: Int) -> String { "panel\(number)" }
    static func hingeID(_ number: Int) -> String { "h\(number)" }

    /// The rig as a JSON value (object keys in the order a person would write them).
    static func document() -> JSONValue {
        .object([
            ("id", .string("bench-chain8")),
            ("name", .string("Benchmark rig: 8 panels in a zigzag chain, 16 cameras, 6 displays")),
            ("panels", .array((1...panelCount).map(panel))),
            ("displays", .array(displays())),
            ("cameras", .array(cameras())),
            ("postures", .array(postures())),
            ("switches", .object([("lid", .object([("hinge", .string(hingeID(1))), ("angle", .int(0))]))])),
            ("tunables", .object([
                ("occludedBelow", .int(15)), ("directionHysteresis", .int(10)), ("postureMargin", .int(5)),
            ])),
        ])
    }

    /// The rig as JSON text, ready for `RigDecoder.decode(json:)` or a rig file.
    static func json() -> String { document().prettyText }

    /// The decoded, validated rig.
    static func rig() throws(DocumentErrors) -> Rig { try RigDecoder.decode(json: json()) }

    // MARK: Parts

    private static func panel(_ number: Int) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(panelID(number))),
            ("size", .array([.int(72), .int(156)])),
        ]
        if number > 1 {
            let hinge = number - 1
            let valley = hinge % 2 == 1
            members.insert(("parent", .string(panelID(number - 1))), at: 1)
            members.append(("hinge", .object([
                ("id", .string(hingeID(hinge))),
                ("axis", .array([.int(0), .int(-1), .int(0)])),
                ("range", .array(valley ? [.int(0), .int(180)] : [.int(180), .int(360)])),
                ("initial", .int(180)),
                ("edge", .string("right")),
            ])))
        }
        return .object(members)
    }

    /// Three displays span two panels (a book-style inner screen across the valley fold h1, an
    /// outward-folding screen across the mountain fold h4, another book-style one across h7) and
    /// three sit on one face.
    private static func displays() -> [JSONValue] {
        func display(_ id: String, _ faces: [String], anchor: String? = nil) -> JSONValue {
            var members: [(String, JSONValue)] = [("id", .string(id)), ("faces", .array(faces.map { .string($0) }))]
            if let anchor { members.append(("anchor", .string(anchor))) }
            return .object(members)
        }
        return [
            display("inner-1-2", ["panel1.A", "panel2.A"], anchor: "panel2"),
            display("outer-4-5", ["panel4.A", "panel5.A"], anchor: "panel4"),
            display("inner-7-8", ["panel7.A", "panel8.A"], anchor: "panel8"),
            display("cover-1", ["panel1.B"]),
            display("side-3", ["panel3.B"]),
            display("side-6", ["panel6.A"]),
        ]
    }

    /// Two cameras per panel, one on each face; mounts, device types and depth vary.
    private static func cameras() -> [JSONValue] {
        var list: [JSONValue] = []
        for number in 1...panelCount {
            for side in ["A", "B"] {
                let index = list.count
                let depth = index % 3 == 0
                var media: [JSONValue] = [.string("video")]
                if depth { media.append(.string("depth")) }
                list.append(.object([
                    ("id", .string("cam\(number)\(side.lowercased())")),
                    ("name", .string("Camera on \(panelID(number)).\(side)")),
                    ("face", .string("\(panelID(number)).\(side)")),
                    ("deviceType", .string(deviceTypes[index % deviceTypes.count])),
                    ("mediaTypes", .array(media)),
                    ("sensorRotation", .int(sensorRotations[index % sensorRotations.count])),
                    ("formats", .array(formats(topFPS: index % 2 == 0 ? 60 : 30, uhd: index % 4 == 1))),
                ]))
            }
        }
        return list
    }

    private static func formats(topFPS: Int, uhd: Bool) -> [JSONValue] {
        func format(_ width: Int, _ height: Int, _ fps: Int) -> JSONValue {
            .object([
                ("pixelFormats", .array([.string("NV12"), .string("YUYV")])),
                ("width", .int(width)), ("height", .int(height)), ("fps", .int(fps)),
            ])
        }
        var list: [JSONValue] = []
        if uhd { list.append(format(3840, 2160, 30)) }
        list.append(format(1920, 1080, topFPS))
        list.append(format(1280, 720, 60))
        list.append(format(640, 480, 30))
        return list
    }

    /// Postures over h1 only (the other hinges accept any angle): [0,30) closed, [30,150)
    /// half open, [150,180] open. They cover h1's whole range and do not overlap.
    private static func postures() -> [JSONValue] {
        func posture(_ id: String, _ lower: Int, _ upper: Int, _ display: String) -> JSONValue {
            .object([
                ("id", .string(id)),
                ("ranges", .object([(hingeID(1), .array([.int(lower), .int(upper)]))])),
                ("display", .string(display)),
            ])
        }
        return [
            posture("closed", 0, 30, "cover-1"),
            posture("halfOpen", 30, 150, "inner-1-2"),
            posture("open", 150, 180, "inner-1-2"),
        ]
    }

    /// A pose where nothing is covered, so every display and camera takes part in the decisions
    /// (the most expensive full recompute): valley hinges at 100–160°, mountain hinges at 200–260°.
    static let openAngles: [Double] = [120, 240, 100, 260, 140, 220, 160]
}
