/// Builds a `Rig` from its JSON description, reporting every problem with its path.
public enum RigDecoder {
    public static func decode(json text: String) throws(DocumentErrors) -> Rig {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw DocumentErrors([PathError(path: "", message: "invalid JSON: \(error)")])
        }
        return try decode(value)
    }

    public static func decode(_ value: JSONValue) throws(DocumentErrors) -> Rig {
        let collector = ErrorCollector()
        let root = JSONCursor(value: value, path: "", collector: collector)
        let rig = decodeRig(root)
        if let rig, collector.errors.isEmpty {
            RigValidator.validate(rig, collector: collector)
        }
        guard let rig, collector.errors.isEmpty else {
            throw collector.reported
        }
        return rig
    }

    static let topLevelKeys = [
        "id", "name", "panels", "displays", "cameras", "accelerometers", "postures", "switches",
        "tunables", "virtualCamera", "presence",
    ]

    private static func decodeRig(_ root: JSONCursor) -> Rig? {
        guard root.isObject() else { return nil }
        root.checkKeys(topLevelKeys)
        let id = root.required("id", "the rig's id, e.g. \"duo\"")?.identifier()
        let name = root.field("name")?.string() ?? id ?? ""

        // Ids as written, even for entries that failed to decode: references to them are then
        // not reported again, so one mistake gives one error rather than a cascade.
        let declared = DeclaredIDs(root.value)
        let (panels, hinges) = decodePanels(root)
        let panelIDs = IDTable(decoded: panels.map(\.id), declared: declared.panels)
        let faces = FaceResolver(panels: panelIDs)
        let displays = decodeList(root, "displays", required: true, limit: RigLimits.displays) { decodeDisplay($0, faces) }
        let displayIDs = IDTable(decoded: displays.map(\.id), declared: declared.displays)
        let cameras = decodeList(root, "cameras", required: true, limit: RigLimits.cameras) { decodeCamera($0, faces, displays) }
        // More than two is an error the validator names; the limit only bounds the decoding.
        let accelerometers = decodeList(root, "accelerometers", required: false, limit: RigLimits.panels) { cursor -> Accelerometer? in
            guard cursor.isObject() else { return nil }
            cursor.checkKeys(["id", "panel"])
            let id = cursor.required("id", "\"base\" or \"display\" (udev ACCEL_LOCATION)")?.identifier()
            let panel = cursor.required("panel", "a panel id")?.reference(panelIDs, kind: "panel")
            guard let id, let panel else { return nil }
            return Accelerometer(id: id, panel: panel)
        }
        let hingeIDs = IDTable(decoded: hinges.map(\.id), declared: declared.hinges)
        let postures = decodeList(root, "postures", required: true, limit: RigLimits.postures) { decodePosture($0, hingeIDs, displayIDs) }
        let switches = decodeSwitches(root.field("switches"), hingeIDs)
        let tunables = decodeTunables(root.field("tunables"))
        let cameraIDs = IDTable(decoded: cameras.map(\.id), declared: declared.cameras)
        let virtualCamera = decodeVirtualCamera(root.field("virtualCamera"), displayIDs: displayIDs, cameraIDs: cameraIDs)
        let presence = decodePresence(root, displays: displays, displayIDs: displayIDs, panels: panels, postureIDs: IDTable(decoded: postures.map(\.id), declared: declared.postures))

        checkUnique(root, "panels", declared.panels)
        checkUnique(root, "hinges", declared.hinges, pathOf: { declared.hingePaths[$0] })
        checkUnique(root, "displays", declared.displays)
        checkUniqueOutputs(root)
        checkUnique(root, "cameras", declared.cameras)
        checkUnique(root, "accelerometers", declared.accelerometers)
        checkUnique(root, "postures", declared.postures)

        guard let id, let virtualCamera else { return nil }
        return Rig(
            id: id, name: name, panels: panels, hinges: hinges, displays: displays, cameras: cameras,
            accelerometers: accelerometers, postures: postures, switches: switches, tunables: tunables,
            virtualCamera: virtualCamera, presence: presence)
    }

    private static func decodeList<T>(
        _ root: JSONCursor, _ key: String, required: Bool, limit: Int, _ decode: (JSONCursor) -> T?
    ) -> [T] {
        let cursor = required ? root.required(key, "an array") : root.field(key)
        guard let elements = cursor?.array(limit: limit, kind: key) else { return [] }
        if required && elements.isEmpty {
            root.collector.add(root.child(key), "must not be empty")
        }
        return elements.compactMap(decode)
    }

    private static func checkUnique(
        _ root: JSONCursor, _ key: String, _ ids: [String], pathOf: ((Int) -> String)? = nil
    ) {
        var seen: [String: Int] = [:]
        for (index, id) in ids.enumerated() {
            if let first = seen[id] {
                let path = pathOf?(index) ?? "\(root.child(key))[\(index)].id"
                root.collector.add(path, "duplicate id \"\(id)\" (already used by \(key) entry \(first))")
            } else {
                seen[id] = index
            }
        }
    }

    /// Two displays cannot be one output: the second naming a connector is refused.
    private static func checkUniqueOutputs(_ root: JSONCursor) {
        guard case let .array(elements)? = root.value["displays"] else { return }
        var seen: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            guard let name = element["output"]?.stringValue else { continue }
            if let first = seen[name] {
                root.collector.add("\(root.child("displays"))[\(index)].output", "output \"\(name)\" is already displays[\(first)]'s (each output shows one display)")
            } else {
                seen[name] = index
            }
        }
    }

    // MARK: Panels and hinges

    private struct RawPanel {
        var id: String
        var parentID: String?
        var width: Double
        var height: Double
        var hinge: Hinge?
        var path: String
    }

    private static func decodePanels(_ root: JSONCursor) -> ([Panel], [Hinge]) {
        guard let elements = root.required("panels", "an array of panels")?.array(limit: RigLimits.panels, kind: "panels") else { return ([], []) }
        if elements.isEmpty { root.collector.add(root.child("panels"), "must not be empty (a rig has at least one panel)") }
        var raws: [RawPanel] = []
        for cursor in elements {
            guard cursor.isObject() else { continue }
            cursor.checkKeys(["id", "parent", "hinge", "size"])
            let id = cursor.required("id", "a panel id")?.identifier()
            let parentID = cursor.field("parent")?.identifier()
            var width = 70.0
            var height = 150.0
            if let size = cursor.field("size")?.numbers(count: 2) {
                if size.allSatisfy({ $0 > 0 && $0 < 10_000 }) {
                    width = size[0]
                    height = size[1]
                } else {
                    cursor.collector.add(cursor.child("size"), "expected [width, height] in millimetres, both positive")
                }
            }
            var hinge: Hinge?
            if let hingeCursor = cursor.field("hinge") {
                if cursor.field("parent") == nil {
                    cursor.collector.add(hingeCursor.path, "a hinge needs a \"parent\" panel to join")
                }
                hinge = decodeHinge(hingeCursor)
            } else if cursor.field("parent") != nil {
                cursor.collector.add(cursor.child("hinge"), "missing (a panel with a parent is joined to it by a hinge)")
            }
            if let id { raws.append(RawPanel(id: id, parentID: parentID, width: width, height: height, hinge: hinge, path: cursor.path)) }
        }
        return orderPanels(raws, root)
    }

    private static func decodeHinge(_ cursor: JSONCursor) -> Hinge? {
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["id", "axis", "range", "initial", "edge"])
        let id = cursor.required("id", "a hinge id")?.identifier()
        var axis: Vector3?
        if let axisCursor = cursor.required("axis", "[x, y, z], a unit vector in the parent frame"),
           let values = axisCursor.numbers(count: 3) {
            let vector = Vector3(values[0], values[1], values[2])
            if vector.length < 1e-9 {
                axisCursor.collector.add(axisCursor.path, "zero axis (expected a unit vector, e.g. [0, -1, 0])")
            } else if abs(vector.length - 1) > 1e-6 {
                axisCursor.collector.add(axisCursor.path, "axis has length \(vector.length) (expected a unit vector)")
            } else {
                axis = vector
            }
        }
        var range: (Double, Double)?
        if let rangeCursor = cursor.required("range", "[minimum, maximum] in degrees within 0...360"),
           let values = rangeCursor.numbers(count: 2) {
            if values[0] < 0 || values[1] > 360 {
                rangeCursor.collector.add(rangeCursor.path, "range must lie within 0...360 degrees")
            } else if values[0] >= values[1] {
                rangeCursor.collector.add(rangeCursor.path, "empty range [\(numberText(values[0])), \(numberText(values[1]))] (minimum must be below maximum)")
            } else {
                range = (values[0], values[1])
            }
        }
        var edge = PanelEdge.right
        if let edgeCursor = cursor.field("edge"), let text = edgeCursor.string() {
            if let parsed = PanelEdge(rawValue: text) {
                edge = parsed
            } else {
                edgeCursor.collector.add(edgeCursor.path, "unknown edge \"\(text)\" (expected one of: left, right, top, bottom)")
            }
        }
        guard let id, let axis, let range else { return nil }
        var initial = min(max(180, range.0), range.1)
        if let initialCursor = cursor.field("initial"), let value = initialCursor.number() {
            if value < range.0 || value > range.1 {
                initialCursor.collector.add(initialCursor.path, "initial angle \(numberText(value)) is outside the hinge range")
            } else {
                initial = value
            }
        }
        return Hinge(id: id, child: -1, parent: -1, axis: axis, minimum: range.0, maximum: range.1, initial: initial, edge: edge)
    }

    /// Puts parents before children, resolving parent ids and catching cycles and orphans.
    /// The order is the one repeated passes over the list give (a panel joins in the first pass
    /// that meets it after its parent), computed in one walk down the tree.
    private static func orderPanels(_ raws: [RawPanel], _ root: JSONCursor) -> ([Panel], [Hinge]) {
        let ids = Set(raws.map(\.id))
        let roots = raws.indices.filter { raws[$0].parentID == nil }
        if !raws.isEmpty && roots.count != 1 {
            let message = roots.isEmpty
                ? "no root panel (exactly one panel must have no \"parent\")"
                : "\(roots.count) root panels (\(listing(roots.map { raws[$0].id }))); exactly one panel may have no \"parent\""
            root.collector.add(root.child("panels"), message)
        }
        var ok = roots.count == 1
        for raw in raws {
            if let parent = raw.parentID, !ids.contains(parent) {
                root.collector.add("\(raw.path).parent", "unknown panel \"\(parent)\" (panels: \(listing(raws.map(\.id))))")
                ok = false
            } else if raw.parentID == raw.id {
                root.collector.add("\(raw.path).parent", "a panel cannot be its own parent")
                ok = false
            }
        }
        guard ok else { return ([], []) }
        var childrenByParent: [String: [Int]] = [:]
        for (index, raw) in raws.enumerated() {
            if let parent = raw.parentID { childrenByParent[parent, default: []].append(index) }
        }
        // pass[i]: the pass placing raws[i]. A child listed after its parent joins in the parent's
        // pass, one listed before it in the next; the root's children join in pass 1.
        var pass = [Int?](repeating: nil, count: raws.count)
        pass[roots[0]] = 0
        var walk = [roots[0]]
        var expanded: Set<String> = []
        while let index = walk.popLast() {
            guard expanded.insert(raws[index].id).inserted else { continue }
            for child in childrenByParent[raws[index].id] ?? [] where pass[child] == nil {
                let parentPass = pass[index]!
                pass[child] = parentPass == 0 || child < index ? parentPass + 1 : parentPass
                walk.append(child)
            }
        }
        let unplaced = raws.indices.filter { pass[$0] == nil }
        if !unplaced.isEmpty {
            root.collector.add(root.child("panels"), "parent cycle among panels \(listing(unplaced.map { raws[$0].id })) (panels must form a tree)")
            return ([], [])
        }
        let ordered = raws.indices.sorted { (pass[$0]!, $0) < (pass[$1]!, $1) }
        var panels: [Panel] = []
        var hinges: [Hinge] = []
        var panelIndex: [String: Int] = [:]
        for rawIndex in ordered {
            let raw = raws[rawIndex]
            let parent = raw.parentID.flatMap { panelIndex[$0] }
            var hingeIndex: Int?
            if var hinge = raw.hinge, let parent {
                hinge.child = panels.count
                hinge.parent = parent
                hingeIndex = hinges.count
                hinges.append(hinge)
            }
            if panelIndex[raw.id] == nil { panelIndex[raw.id] = panels.count }
            panels.append(Panel(id: raw.id, parent: parent, hinge: hingeIndex, width: raw.width, height: raw.height))
        }
        return (panels, hinges)
    }

    // MARK: Displays and cameras

    private static func decodeDisplay(_ cursor: JSONCursor, _ faces: FaceResolver) -> Display? {
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["id", "faces", "anchor", "output", "edid", "mountRotation"])
        let id = cursor.required("id", "a display id")?.identifier()
        let output = decodeOutput(cursor)
        var refs: [FaceRef] = []
        if let list = cursor.required("faces", "an array of faces such as [\"left.A\", \"right.A\"]")?.array() {
            if list.isEmpty { cursor.collector.add(cursor.child("faces"), "must not be empty") }
            refs = list.compactMap { faces.resolve($0) }
            if refs.count == list.count && Set(refs).count != refs.count {
                cursor.collector.add(cursor.child("faces"), "lists a face twice")
            }
        }
        var anchor = refs.first?.panel
        if let anchorCursor = cursor.field("anchor"), let panel = anchorCursor.reference(faces.panels, kind: "panel") {
            if refs.contains(where: { $0.panel == panel }) {
                anchor = panel
            } else {
                anchorCursor.collector.add(anchorCursor.path, "anchor panel \"\(faces.panels.decoded[panel])\" carries none of this display's faces")
                anchor = nil
            }
        }
        guard let id, let anchor, !refs.isEmpty, let side = refs.first(where: { $0.panel == anchor })?.side else { return nil }
        return Display(id: id, faces: refs, anchor: anchor, anchorSide: side, output: output)
    }

    /// `output`, `edid` and `mountRotation` of a display (docs/rig-format.md, "Outputs").
    private static func decodeOutput(_ cursor: JSONCursor) -> DisplayOutput? {
        var connector: String?
        if let field = cursor.field("output"), let name = field.string() {
            if let problem = ConnectorName.problem(name) {
                field.collector.add(field.path, problem)
            } else {
                connector = name
            }
        }
        var edid: EDIDMatch?
        if let field = cursor.field("edid"), field.isObject() {
            field.checkKeys(["vendor", "product", "serial"])
            var match = EDIDMatch()
            if let vendorField = field.field("vendor"), let vendor = vendorField.string() {
                if vendor.utf8.count == 3 && vendor.utf8.allSatisfy({ (65...90).contains($0) }) {
                    match.vendor = vendor
                } else {
                    vendorField.collector.add(vendorField.path, "\"\(vendor)\" is not a PNP manufacturer id (expected three capital letters, e.g. \"BOE\")")
                }
            }
            if let product = field.field("product")?.integer() {
                if (0...0xFFFF).contains(product) {
                    match.product = product
                } else {
                    field.collector.add(field.child("product"), "\(product) is not an EDID product code (0...65535)")
                }
            }
            match.serial = field.field("serial")?.string()
            if match == EDIDMatch() {
                field.collector.add(field.path, "names nothing to match (give vendor, product or serial)")
            } else {
                edid = match
            }
        }
        var mountRotation: Int?
        if let field = cursor.field("mountRotation"), let value = field.integer() {
            if [0, 90, 180, 270].contains(value) {
                mountRotation = value
            } else {
                field.collector.add(field.path, "\(value) is not one of 0, 90, 180, 270 (clockwise degrees)")
            }
        }
        guard connector != nil || edid != nil || mountRotation != nil else { return nil }
        return DisplayOutput(connector: connector, edid: edid, mountRotation: mountRotation)
    }

    private static func decodeCamera(_ cursor: JSONCursor, _ faces: FaceResolver, _ displays: [Display]) -> Camera? {
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["id", "name", "face", "deviceType", "mediaTypes", "sensorRotation", "formats", "pipewire"])
        let id = cursor.required("id", "a camera id")?.identifier()
        let face = cursor.required("face", "a face such as \"right.A\"").flatMap { faces.resolve($0) }
        let deviceType = cursor.field("deviceType")?.string() ?? "wide"
        var mediaTypes = ["video"]
        if let mediaCursor = cursor.field("mediaTypes"), let values = mediaCursor.strings() {
            let unknown = values.filter { $0 != "video" && $0 != "depth" }
            if !unknown.isEmpty {
                mediaCursor.collector.add(mediaCursor.path, "unknown media type \"\(unknown[0])\" (expected video, depth)")
            } else if !values.contains("video") {
                mediaCursor.collector.add(mediaCursor.path, "must include \"video\"")
            } else {
                mediaTypes = values
            }
        }
        var sensorRotation = 0
        if let rotationCursor = cursor.field("sensorRotation"), let value = rotationCursor.integer() {
            if [0, 90, 180, 270].contains(value) {
                sensorRotation = value
            } else {
                rotationCursor.collector.add(rotationCursor.path, "\(value) is not one of 0, 90, 180, 270 (clockwise degrees)")
            }
        }
        let modes = cursor.required("formats", "an array of capture formats").map(decodeFormats) ?? []
        guard let id, let face else { return nil }
        let sharesDisplayFace = displays.contains { $0.faces.contains(face) }
        return Camera(
            id: id, name: cursor.field("name")?.string() ?? id, face: face, deviceType: deviceType,
            mediaTypes: mediaTypes, sensorRotation: sensorRotation, modes: modes,
            position: sharesDisplayFace ? "front" : "back", pipewire: cursor.field("pipewire").flatMap(PipeWireMatch.decode))
    }

    /// `[{"pixelFormats": ["NV12", "YUYV"], "width": 1920, "height": 1080, "fps": 60}, ...]`
    private static func decodeFormats(_ cursor: JSONCursor) -> [CameraMode] {
        guard let entries = cursor.array() else { return [] }
        if entries.isEmpty { cursor.collector.add(cursor.path, "must not be empty (a camera has at least one format)") }
        var modes: [CameraMode] = []
        for entry in entries {
            guard entry.isObject() else { continue }
            entry.checkKeys(["pixelFormats", "width", "height", "fps"])
            let pixelFormats = entry.required("pixelFormats", "an array of FourCCs such as [\"NV12\", \"YUYV\"]")?.strings()
            let width = entry.required("width", "pixels")?.integer()
            let height = entry.required("height", "pixels")?.integer()
            let fps = entry.required("fps", "frames per second")?.number()
            for (index, format) in (pixelFormats ?? []).enumerated() where format.utf8.count != 4 {
                entry.collector.add("\(entry.child("pixelFormats"))[\(index)]", "\"\(format)\" is not a FourCC (expected four characters, e.g. \"NV12\")")
            }
            if let width, let height, !(1...16384).contains(width) || !(1...16384).contains(height) {
                entry.collector.add(entry.path, "size \(width)x\(height) is out of range (1...16384)")
            }
            if let fps, !(fps > 0 && fps <= 1000) {
                entry.collector.add(entry.child("fps"), "\(numberText(fps)) is out of range (expected 0 < fps <= 1000)")
            }
            guard let pixelFormats, let width, let height, let fps else { continue }
            for format in pixelFormats {
                modes.append(CameraMode(pixelFormat: format, width: width, height: height, fps: fps))
            }
        }
        // The format choice compares every mode of one camera with every other camera's.
        if modes.count > RigLimits.modesPerCamera {
            cursor.collector.add(cursor.path, "\(modes.count) capture modes (pixel formats at a size and rate), more than the \(RigLimits.modesPerCamera) foldcam accepts (see Limits in docs/rig-format.md): list the modes the virtual camera may use")
            return []
        }
        return modes
    }

    // MARK: Postures, switches, tunables, virtual camera

    private static func decodePosture(_ cursor: JSONCursor, _ hingeIDs: IDTable, _ displayIDs: IDTable) -> Posture? {
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["id", "ranges", "display"])
        let id = cursor.required("id", "a posture id")?.identifier()
        let display = cursor.required("display", "the display a person uses in this posture")?.reference(displayIDs, kind: "display")
        var ranges: [Posture.Range] = []
        var rangesValid = true
        if let members = cursor.required("ranges", "an object mapping hinge ids to [from, to] degrees")?.members() {
            for (hingeID, rangeCursor) in members {
                guard let hinge = hingeIDs.resolve(hingeID, at: rangeCursor, kind: "hinge") else {
                    rangesValid = false
                    continue
                }
                guard let values = rangeCursor.numbers(count: 2) else {
                    rangesValid = false
                    continue
                }
                if values[0] >= values[1] {
                    cursor.collector.add(rangeCursor.path, "empty range [\(numberText(values[0])), \(numberText(values[1]))) (from must be below to)")
                    rangesValid = false
                    continue
                }
                ranges.append(Posture.Range(hinge: hinge, lower: values[0], upper: values[1]))
            }
        } else {
            rangesValid = false
        }
        guard let id, let display, rangesValid else { return nil }
        return Posture(id: id, ranges: ranges, display: display)
    }

    private static func decodeSwitches(_ cursor: JSONCursor?, _ hingeIDs: IDTable) -> SwitchMappings {
        var mappings = SwitchMappings()
        guard let cursor, cursor.isObject() else { return mappings }
        cursor.checkKeys(["lid", "tabletMode"])
        func mapping(_ key: String) -> SwitchMapping? {
            guard let entry = cursor.field(key), entry.isObject() else { return nil }
            entry.checkKeys(["hinge", "angle", "mode"])
            let hinge = entry.required("hinge", "a hinge id")?.reference(hingeIDs, kind: "hinge")
            let angle = entry.required("angle", "degrees")?.number(in: 0...360)
            var mode = SwitchMapping.Mode.override
            if let field = entry.field("mode"), let text = field.string() {
                let names = SwitchMapping.Mode.allCases.map(\.rawValue)
                if let chosen = SwitchMapping.Mode(rawValue: text) {
                    mode = chosen
                } else {
                    field.collector.add(field.path, "unknown switch mode \"\(text)\" (expected one of: \(names.joined(separator: ", ")))\(NearestName.hint(for: text, among: names))")
                    return nil
                }
            }
            guard let hinge, let angle else { return nil }
            return SwitchMapping(hinge: hinge, angle: angle, mode: mode)
        }
        mappings.lid = mapping("lid")
        mappings.tabletMode = mapping("tabletMode")
        return mappings
    }

    private static func decodeTunables(_ cursor: JSONCursor?) -> Tunables {
        var tunables = Tunables()
        guard let cursor, cursor.isObject() else { return tunables }
        let fields: [(String, ClosedRange<Double>, WritableKeyPath<Tunables, Double>)] = [
            ("occludedBelow", 0...90, \.occludedBelow),
            ("directionHysteresis", 0...45, \.directionHysteresis),
            ("postureMargin", 0...45, \.postureMargin),
            ("accelerometerMinimumProjection", 0...1, \.accelerometerMinimumProjection),
            ("rotationMinimumProjection", 0...1, \.rotationMinimumProjection),
        ]
        cursor.checkKeys(fields.map(\.0) + ["plausibility"])
        for (key, range, keyPath) in fields {
            if let value = cursor.field(key)?.number(in: range) { tunables[keyPath: keyPath] = value }
        }
        if let limits = cursor.field("plausibility"), limits.isObject() {
            let fields: [(String, ClosedRange<Double>, WritableKeyPath<PlausibilityLimits, Double>)] = [
                ("outsideRange", 1...90, \.outsideRange),
                ("stuckBelow", 0...10, \.stuckBelow),
                ("stuckForMilliseconds", 100...600_000, \.stuckForMilliseconds),
                ("movedBy", 1...180, \.movedBy),
                ("openAbove", 1...180, \.openAbove),
                ("agreement", 1...90, \.agreement),
                ("trustAfter", 1...1000, \.trustAfter),
            ]
            limits.checkKeys(fields.map(\.0))
            for (key, range, keyPath) in fields {
                if let value = limits.field(key)?.number(in: range) { tunables.plausibility[keyPath: keyPath] = value }
            }
        }
        return tunables
    }

    private static func decodeVirtualCamera(_ cursor: JSONCursor?, displayIDs: IDTable, cameraIDs: IDTable) -> VirtualCameraConfig? {
        var config = VirtualCameraConfig(follow: Array(displayIDs.decoded.indices), preferDeviceTypes: [], mirror: false)
        guard let cursor else { return config }
        guard cursor.isObject() else { return nil }
        cursor.checkKeys(["follow", "preferDeviceTypes", "mirror", "exclude", "excludeKinds"])
        var valid = true
        if let follow = cursor.field("follow"), let entries = follow.array() {
            let indices = entries.compactMap { $0.reference(displayIDs, kind: "display") }
            valid = indices.count == entries.count
            if entries.isEmpty { follow.collector.add(follow.path, "must name at least one display") }
            if valid && Set(indices).count != indices.count {
                follow.collector.add(follow.path, "lists a display twice")
                valid = false
            }
            config.follow = indices
        }
        if let prefer = cursor.field("preferDeviceTypes"), let types = prefer.array(limit: RigLimits.preferDeviceTypes, kind: "preferDeviceTypes") {
            let strings = types.compactMap { $0.string() }
            if strings.count == types.count { config.preferDeviceTypes = strings }
        }
        if let mirror = cursor.field("mirror")?.bool() { config.mirror = mirror }
        if let exclude = cursor.field("exclude"), let entries = exclude.array(limit: RigLimits.cameras, kind: "exclude") {
            config.exclude = entries.compactMap { entry in
                guard let id = entry.string() else { return nil }
                if let index = cameraIDs.decoded.firstIndex(of: id) { return index }
                if !cameraIDs.declared.contains(id) {
                    entry.collector.add(entry.path, "unknown camera \(ClientText.quoted(id))\(NearestName.hint(for: id, among: cameraIDs.declared)) (cameras: \(listing(cameraIDs.declared)))")
                }
                return nil
            }
        }
        if let kinds = cursor.field("excludeKinds"), let entries = kinds.array(limit: CameraKind.allCases.count * 2, kind: "excludeKinds") {
            let names = CameraKind.allCases.map(\.rawValue)
            config.excludeKinds = entries.compactMap { entry in
                guard let name = entry.string() else { return nil }
                guard let kind = CameraKind(rawValue: name) else {
                    entry.collector.add(entry.path, "unknown camera kind \(ClientText.quoted(name))\(NearestName.hint(for: name, among: names)) (kinds: \(names.joined(separator: ", ")))")
                    return nil
                }
                return kind
            }
        }
        return valid ? config : nil
    }
}

/// The ids of one kind of entry: those that decoded (their index is the reference) and all that
/// were written (an id whose entry failed is known, just unusable: no second error for it).
struct IDTable {
    let decoded: [String]
    let declared: [String]
    /// Lookups by hash: a document with many references costs one probe each.
    private let decodedIndex: [String: Int]
    private let declaredSet: Set<String>

    init(decoded: [String], declared: [String]) {
        self.decoded = decoded
        self.declared = declared
        var index: [String: Int] = [:]
        for (position, id) in decoded.enumerated() where index[id] == nil { index[id] = position }
        decodedIndex = index
        declaredSet = Set(declared)
    }

    func resolve(_ id: String, at cursor: JSONCursor, kind: String) -> Int? {
        if let index = decodedIndex[id] { return index }
        if !declaredSet.contains(id) {
            cursor.collector.add(cursor.path, "unknown \(kind) \"\(id)\" (\(kind)s: \(listing(declared)))")
        }
        return nil
    }
}

/// Reads the `id` fields as written, before any decoding.
struct DeclaredIDs {
    var panels: [String] = []
    var hinges: [String] = []
    var hingePaths: [String] = []
    var displays: [String] = []
    var cameras: [String] = []
    var accelerometers: [String] = []
    var postures: [String] = []

    init(_ document: JSONValue) {
        func ids(_ key: String) -> [String] {
            guard case let .array(elements)? = document[key] else { return [] }
            return elements.compactMap { $0["id"]?.stringValue }
        }
        panels = ids("panels")
        displays = ids("displays")
        cameras = ids("cameras")
        accelerometers = ids("accelerometers")
        postures = ids("postures")
        if case let .array(elements)? = document["panels"] {
            for (index, panel) in elements.enumerated() {
                if let id = panel["hinge"]?["id"]?.stringValue {
                    hinges.append(id)
                    hingePaths.append("panels[\(index)].hinge.id")
                }
            }
        }
    }
}

extension JSONCursor {
    /// Resolves a string value naming an entry of `ids`.
    func reference(_ ids: IDTable, kind: String) -> Int? {
        guard let text = string() else { return nil }
        return ids.resolve(text, at: self, kind: kind)
    }
}

/// Parses face names such as `right.A`.
struct FaceResolver {
    let panels: IDTable

    func resolve(_ cursor: JSONCursor) -> FaceRef? {
        guard let text = cursor.string() else { return nil }
        guard let dot = text.lastIndex(of: "."),
              let side = FaceSide(rawValue: String(text[text.index(after: dot)...])) else {
            cursor.collector.add(cursor.path, "\"\(text)\" is not a face (expected PANEL.A or PANEL.B, e.g. \"\(panels.declared.first ?? "left").A\")")
            return nil
        }
        guard let panel = panels.resolve(String(text[..<dot]), at: cursor, kind: "panel") else { return nil }
        return FaceRef(panel: panel, side: side)
    }
}
