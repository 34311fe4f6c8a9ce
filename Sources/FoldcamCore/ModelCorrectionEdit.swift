/// A calibration's corrections written into a model file's JSON (pure): the model stays as it
/// was but for the `corrections` of the `devices.sensors` entries calibrated; a sensor no entry
/// matched gets a new entry. Returns the new model and one line per value that changed.
public enum ModelCorrectionEdit {
    public struct SensorChange: Sendable, Equatable {
        /// The index in `devices.sensors` of the entry that matched the sensor; nil when none did.
        public var entry: Int?
        /// The entry to add when none matched (`{"hinge": "lid", "iioName": "hinge"}`).
        public var newEntry: JSONValue
        /// Correction keys and their new values; `.null` means the key goes (its default holds).
        public var corrections: [(String, JSONValue)]

        public init(entry: Int?, newEntry: JSONValue, corrections: [(String, JSONValue)]) {
            self.entry = entry
            self.newEntry = newEntry
            self.corrections = corrections
        }

        public static func == (a: SensorChange, b: SensorChange) -> Bool {
            a.entry == b.entry && a.newEntry == b.newEntry && JSONValue.object(a.corrections) == JSONValue.object(b.corrections)
        }

        /// A hinge's sign and offset (the defaults, 1 and 0, are written as no key).
        public static func hinge(entry: Int?, newEntry: JSONValue, _ correction: HingeCorrection) -> SensorChange {
            SensorChange(entry: entry, newEntry: newEntry, corrections: [
                ("sign", correction.sign == 1 ? .null : .int(correction.sign)),
                ("offset", correction.offset == 0 ? .null : number(correction.offset)),
            ])
        }

        public static func accelerometer(entry: Int?, newEntry: JSONValue, swapped: Bool) -> SensorChange {
            SensorChange(entry: entry, newEntry: newEntry, corrections: [("swapLocation", swapped ? .bool(true) : .null)])
        }
    }

    public static func apply(_ changes: [SensorChange], to model: JSONValue) -> (model: JSONValue, changed: [String]) {
        var sensors: [JSONValue] = []
        if case let .array(existing)? = model["devices"]?["sensors"] { sensors = existing }
        var changed: [String] = []
        for change in changes {
            let index: Int
            if let entry = change.entry, sensors.indices.contains(entry) {
                index = entry
            } else {
                // A sensor no entry matched needs one only to carry a correction.
                guard change.corrections.contains(where: { $0.1 != .null }) else { continue }
                index = sensors.count
                sensors.append(change.newEntry)
                changed.append("devices.sensors[\(index)]: added \(change.newEntry.compactText)")
            }
            let before = sensors[index]["corrections"] ?? .object([])
            var after = JSONMerge.merge(before, .object(change.corrections))
            for (key, value) in change.corrections where before[key] != after[key] {
                changed.append("devices.sensors[\(index)].corrections.\(key): \(before[key]?.compactText ?? "(none)") -> \(value == .null ? "(none)" : value.compactText)")
            }
            if case let .object(members) = after, members.isEmpty { after = .null }
            sensors[index] = JSONMerge.merge(sensors[index], .object([("corrections", after)]))
        }
        guard !changed.isEmpty else { return (model, []) }
        // An array of entries without "id" members replaces the old one whole, in its place.
        return (JSONMerge.merge(model, .object([("devices", .object([("sensors", .array(sensors))]))])), changed)
    }

    /// Whole degrees as an integer, so the file reads `360`, not `360.0`.
    static func number(_ value: Double) -> JSONValue {
        value == value.rounded() && abs(value) < 1e9 ? .int(Int(value)) : .double(value)
    }
}
