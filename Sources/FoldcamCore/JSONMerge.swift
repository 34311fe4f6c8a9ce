/// Merges an override document into a base one, for a model's preset overrides: objects merge
/// member by member (`null` removes a member), arrays of objects with an `"id"` merge element by
/// id (new ids are appended, `"remove": true` drops one), anything else replaces the base value.
public enum JSONMerge {
    public static func merge(_ base: JSONValue, _ patch: JSONValue) -> JSONValue {
        switch (base, patch) {
        case let (.object(members), .object(changes)):
            var merged = members
            for (key, change) in changes {
                if let index = merged.firstIndex(where: { $0.0 == key }) {
                    if change == .null { merged.remove(at: index) } else { merged[index].1 = merge(merged[index].1, change) }
                } else if change != .null {
                    merged.append((key, change))
                }
            }
            return .object(merged)
        case let (.array(elements), .array(changes)) where identified(elements) && identified(changes):
            var merged = elements
            for change in changes {
                let index = merged.firstIndex { $0["id"] == change["id"] }
                if change["remove"] == .bool(true) {
                    if let index { merged.remove(at: index) }
                } else if let index {
                    merged[index] = merge(merged[index], change)
                } else {
                    merged.append(change)
                }
            }
            return .array(merged)
        default:
            return patch
        }
    }

    private static func identified(_ elements: [JSONValue]) -> Bool {
        !elements.isEmpty && elements.allSatisfy { if case .string = $0["id"] { return true } else { return false } }
    }
}
