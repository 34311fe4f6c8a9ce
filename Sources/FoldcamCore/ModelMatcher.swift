/// Chooses the device model for this machine from its DMI values: a pure function, so the
/// precedence (docs/devices.md, "Which model wins") is tested from tables.
///
/// 1. A file in /etc/foldcam/models.d replaces the shipped file of the same name.
/// 2. A model matches when every DMI glob it gives matches the machine's value.
/// 3. Among matches: more DMI fields matched wins; then /etc over /usr/share; then the file
///    name that sorts last (so `99-local.json` beats `50-vendor.json`).
public enum ModelMatcher {
    /// Where a model file came from; `local` (/etc) outranks `shipped` (/usr/share).
    public enum Origin: Int, Sendable, Comparable {
        case shipped = 0
        case local = 1

        public static func < (a: Origin, b: Origin) -> Bool { a.rawValue < b.rawValue }
    }

    public struct Candidate: Sendable, Equatable {
        public var model: DeviceModel
        public var origin: Origin
        /// The file's name in its directory (`lenovo-yoga-260.json`).
        public var fileName: String
        /// The whole path, for messages.
        public var path: String

        public init(model: DeviceModel, origin: Origin, fileName: String, path: String) {
            self.model = model
            self.origin = origin
            self.fileName = fileName
            self.path = path
        }
    }

    public struct Choice: Sendable, Equatable {
        public var chosen: Candidate?
        /// The DMI fields the chosen model matched on, with the machine's values.
        public var matched: [(field: DMIField, value: String)]
        /// Why every other candidate was not chosen, one line each, in file order.
        public var notChosen: [(path: String, reason: String)]

        public static func == (a: Choice, b: Choice) -> Bool {
            a.chosen == b.chosen && a.matched.map(\.field) == b.matched.map(\.field) && a.matched.map(\.value) == b.matched.map(\.value)
                && a.notChosen.map(\.path) == b.notChosen.map(\.path) && a.notChosen.map(\.reason) == b.notChosen.map(\.reason)
        }
    }

    public static func choose(dmi: [DMIField: String], among candidates: [Candidate]) -> Choice {
        var notChosen: [(path: String, reason: String)] = []
        let localNames = Set(candidates.filter { $0.origin == .local }.map(\.fileName))
        var matching: [Candidate] = []
        for candidate in candidates {
            if candidate.origin == .shipped && localNames.contains(candidate.fileName) {
                notChosen.append((candidate.path, "replaced by the local file of the same name in /etc/foldcam/models.d"))
                continue
            }
            if let mismatch = mismatch(candidate.model, dmi) {
                notChosen.append((candidate.path, mismatch))
            } else {
                matching.append(candidate)
            }
        }
        let ranked = matching.sorted(by: outranks)
        guard let chosen = ranked.first else { return Choice(chosen: nil, matched: [], notChosen: notChosen) }
        for other in ranked.dropFirst() {
            notChosen.append((other.path, "matches too, but \(chosen.model.id) wins: \(whyWins(chosen, over: other))"))
        }
        let matched = chosen.model.dmi.keys.sorted().map { (field: $0, value: dmi[$0] ?? "") }
        return Choice(chosen: chosen, matched: matched, notChosen: notChosen.sorted { $0.path < $1.path })
    }

    /// Nil when every glob matches; else the first field that does not, named with both values.
    static func mismatch(_ model: DeviceModel, _ dmi: [DMIField: String]) -> String? {
        for field in model.dmi.keys.sorted() {
            let glob = model.dmi[field]!
            guard let value = dmi[field] else { return "\(field.rawValue) \(ClientText.quoted(glob.pattern)): this machine reports no \(field.rawValue)" }
            if !glob.matches(value) { return "\(field.rawValue) \(ClientText.quoted(value)) does not match \(ClientText.quoted(glob.pattern))" }
        }
        return nil
    }

    static func outranks(_ a: Candidate, _ b: Candidate) -> Bool {
        if a.model.dmi.count != b.model.dmi.count { return a.model.dmi.count > b.model.dmi.count }
        if a.origin != b.origin { return a.origin > b.origin }
        return a.fileName > b.fileName
    }

    static func whyWins(_ a: Candidate, over b: Candidate) -> String {
        if a.model.dmi.count != b.model.dmi.count { return "it matches \(a.model.dmi.count) DMI fields, this one \(b.model.dmi.count)" }
        if a.origin != b.origin { return "a local file (/etc) outranks a shipped one" }
        return "same DMI fields and origin; its file name sorts later"
    }
}
