import FoldcamCore

/// Typed shortcuts for the protocol's methods (docs/protocol.md). Each returns the daemon's
/// result as JSON, except where a typed value is the obvious answer.
extension FoldcamConnection {
    /// Subscribes to `topics`; returns the daemon's seq at the time. The current value of each
    /// newly subscribed topic follows at once on `events`, then every change.
    @discardableResult
    public func subscribe(_ topics: [Topic]) async throws(FoldcamClientError) -> Int {
        let result = try await request(method: "subscribe", params: .object([("topics", .array(topics.map { .string($0.rawValue) }))]))
        guard case let .int(seq)? = result["seq"] else { throw .invalidReply("subscribe reply without seq: \(result.compactText)") }
        return seq
    }

    public func unsubscribe(_ topics: [Topic]) async throws(FoldcamClientError) {
        _ = try await request(method: "unsubscribe", params: .object([("topics", .array(topics.map { .string($0.rawValue) }))]))
    }

    /// Protocol and daemon versions, rig id, mode, topics and methods.
    public func hello() async throws(FoldcamClientError) -> JSONValue {
        try await request(method: "hello")
    }

    /// The full state object (the same as the scenario runner prints, plus rig, readiness, seq).
    public func state() async throws(FoldcamClientError) -> JSONValue {
        try await request(method: "state")
    }

    /// The camera descriptors, with availability.
    public func devices() async throws(FoldcamClientError) -> JSONValue {
        try await request(method: "devices")
    }

    /// One display's direction map now.
    public func directionMap(display: String) async throws(FoldcamClientError) -> DirectionMap {
        let result = try await request(method: "directions", params: .object([("display", .string(display))]))
        guard let map = DirectionMap(display: display, reply: result) else {
            throw .invalidReply("directions reply for \(display): \(result.compactText)")
        }
        return map
    }

    /// The direction map of the display on a DRM output (`eDP-2`), as a kiosk that knows only
    /// its window's output asks; the daemon refuses an output its rig does not name.
    public func directionMap(output: String) async throws(FoldcamClientError) -> DirectionMap {
        let result = try await request(method: "directions", params: .object([("output", .string(output))]))
        guard let display = result["display"]?.stringValue, let map = DirectionMap(display: display, reply: result) else {
            throw .invalidReply("directions reply for output \(output): \(result.compactText)")
        }
        return map
    }

    /// Tells the daemon which display the user looks at (the one the kiosk's window is on):
    /// its forward camera then feeds the virtual camera, whatever the posture says. The pin
    /// lasts while this connection is open; with `persist` it outlives the connection and
    /// daemon restarts until `unpinView(persisted: true)` (the newest pin wins; see
    /// docs/protocol.md, "Pins").
    @discardableResult
    public func pinView(display: String, persist: Bool = false) async throws(FoldcamClientError) -> JSONValue {
        var params: [(String, JSONValue)] = [("display", .string(display))]
        if persist { params.append(("persist", .bool(true))) }
        return try await request(method: "pinView", params: .object(params))
    }

    /// Ends this connection's pin, or with `persisted` the persisted pin, whoever made it.
    @discardableResult
    public func unpinView(persisted: Bool = false) async throws(FoldcamClientError) -> JSONValue {
        try await request(method: "unpinView", params: persisted ? .object([("persist", .bool(true))]) : .object([]))
    }

    /// Tells the daemon how the UI on `display` is rotated (0, 90, 180 or 270 degrees), so
    /// preview rotations are relative to it.
    @discardableResult
    public func setScreenRotation(display: String, degrees: Int) async throws(FoldcamClientError) -> DirectionMap {
        let result = try await request(method: "setScreenRotation", params: .object([("display", .string(display)), ("rotation", .int(degrees))]))
        guard let map = DirectionMap(display: display, reply: result) else {
            throw .invalidReply("setScreenRotation reply for \(display): \(result.compactText)")
        }
        return map
    }
}
