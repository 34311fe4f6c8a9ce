import FoldcamCore

/// One event from the daemon: `{"event": "...", "seq": N, "data": {...}}`. `data` is always the
/// topic's full current value, so the latest event of a topic is all a client needs.
public struct FoldcamEvent: Sendable, Equatable {
    /// The event name as sent (a `Topic` raw value for every event protocol version 1 defines).
    public var name: String
    public var seq: Int
    public var data: JSONValue

    public init(name: String, seq: Int, data: JSONValue) {
        self.name = name
        self.seq = seq
        self.data = data
    }

    /// The topic, when the name is one this library knows.
    public var topic: Topic? { Topic(rawValue: name) }
}
