import FoldcamCore

/// Typed access to a request's params, failing with `invalidParams` naming the member.
struct Params {
    let request: WireProtocol.Request

    func failure(_ message: String) -> WireProtocol.Failure {
        WireProtocol.Failure(id: request.id, code: .invalidParams, message: message)
    }

    func string(_ key: String) throws(WireProtocol.Failure) -> String {
        guard let value = request.params[key] else { throw failure("params.\(key): missing") }
        guard let text = value.stringValue else { throw failure("params.\(key): expected a string, found \(value.kindDescription)") }
        return text
    }

    func has(_ key: String) -> Bool { request.params[key] != nil }

    func optionalString(_ key: String) throws(WireProtocol.Failure) -> String? {
        guard let value = request.params[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw failure("params.\(key): expected a string, found \(value.kindDescription)") }
        return text
    }

    func number(_ key: String) throws(WireProtocol.Failure) -> Double {
        guard let value = request.params[key] else { throw failure("params.\(key): missing") }
        guard let number = value.numberValue else { throw failure("params.\(key): expected a number, found \(value.kindDescription)") }
        return number
    }

    func bool(_ key: String) throws(WireProtocol.Failure) -> Bool {
        guard let value = request.params[key] else { throw failure("params.\(key): missing") }
        guard case let .bool(flag) = value else { throw failure("params.\(key): expected true or false, found \(value.kindDescription)") }
        return flag
    }

    func optionalBool(_ key: String) throws(WireProtocol.Failure) -> Bool? {
        guard let value = request.params[key], value != .null else { return nil }
        guard case let .bool(flag) = value else { throw failure("params.\(key): expected true or false, found \(value.kindDescription)") }
        return flag
    }

    func vector(_ key: String) throws(WireProtocol.Failure) -> Vector3 {
        guard case let .array(items)? = request.params[key], items.count == 3,
              let x = items[0].numberValue, let y = items[1].numberValue, let z = items[2].numberValue else {
            throw failure("params.\(key): expected [x, y, z]")
        }
        let vector = Vector3(x, y, z)
        // A direction whose length overflows (or vanishes) has none: refuse it here rather
        // than let the engine drop it after a success reply.
        if let problem = vector.directionProblem(minimumLength: 1e-6) { throw failure("params.\(key): [x, y, z] \(problem)") }
        return vector
    }

    /// Refuses params other than `known`, naming the first stranger and the nearest valid
    /// name, or why a withdrawn one went.
    func refuse(allBut known: [String], withdrawn: [String: String] = [:]) throws(WireProtocol.Failure) {
        guard case let .object(members) = request.params else { return }
        for (key, _) in members where !known.contains(key) {
            if let why = withdrawn[key] { throw failure("params.\(key): \(why)") }
            let expected = known.isEmpty ? "this method takes no params" : "expected: \(known.joined(separator: ", "))"
            throw failure("params: unknown member \(ClientText.quoted(key))\(NearestName.hint(for: key, among: known)) (\(expected))")
        }
    }

    /// An id that must name one of `ids` (the message lists them).
    func id(_ key: String, in ids: [String], kind: String) throws(WireProtocol.Failure) -> Int {
        let text = try string(key)
        guard let index = ids.firstIndex(of: text) else {
            throw failure("params.\(key): unknown \(kind) \(ClientText.quoted(text))\(NearestName.hint(for: text, among: ids)) (\(ids.isEmpty ? "the rig has no \(kind)s" : "\(kind)s: " + ids.joined(separator: ", ")))")
        }
        return index
    }
}
