/// Who holds which pin of the viewed display (docs/protocol.md, "Pins").
///
/// A pin belongs to the connection that made it and lasts while that connection is open, like
/// a wake lock. One pin may instead persist: it outlives its connection and the daemon (it is
/// written to the state directory) until it is unpinned. The newest pin wins; when its owner
/// leaves or unpins, the newest remaining pin takes over.
struct PinBoard {
    /// The process that made a pin, as the kernel reported it at connect time.
    struct Owner: Equatable {
        var uid: UInt32
        var pid: Int32
        /// /proc/PID/comm when the daemon could read it.
        var command: String?
    }

    struct Pin: Equatable {
        /// A display id of the rig (ids, not indices: they survive a reload).
        var display: String
        var owner: Owner
        var persist: Bool
        /// The connection that holds it; nil once a persisted pin's connection has gone (or it
        /// was restored from the state file).
        var sessionID: Int?
    }

    /// Oldest first: the last one is in force.
    private(set) var pins: [Pin] = []

    var inForce: Pin? { pins.last }
    var persisted: Pin? { pins.last(where: \.persist) }

    /// Adds the pin as the newest. It replaces the session's earlier pin, and a persisted pin
    /// replaces the earlier persisted one: there is at most one standing pin, whoever made it.
    mutating func pin(_ display: String, owner: Owner, sessionID: Int, persist: Bool) {
        pins.removeAll { $0.sessionID == sessionID || (persist && $0.persist) }
        pins.append(Pin(display: display, owner: owner, persist: persist, sessionID: sessionID))
    }

    /// Removes the session's own pin; returns it (nil when it held none).
    mutating func unpin(sessionID: Int) -> Pin? {
        guard let index = pins.lastIndex(where: { $0.sessionID == sessionID }) else { return nil }
        return pins.remove(at: index)
    }

    /// Removes the persisted pin, whoever made it; returns it (nil when there was none).
    mutating func unpinPersisted() -> Pin? {
        guard let index = pins.lastIndex(where: \.persist) else { return nil }
        return pins.remove(at: index)
    }

    /// A connection closed: its pin ends unless it persists, which then has no connection.
    /// Returns the pin that ended, if any.
    mutating func sessionLeft(_ sessionID: Int) -> Pin? {
        guard let index = pins.lastIndex(where: { $0.sessionID == sessionID }) else { return nil }
        if pins[index].persist {
            pins[index].sessionID = nil
            return nil
        }
        return pins.remove(at: index)
    }

    /// A persisted pin read back at start, below any pin made since.
    mutating func restore(_ pin: Pin) {
        pins.removeAll(where: \.persist)
        pins.insert(Pin(display: pin.display, owner: pin.owner, persist: true, sessionID: nil), at: 0)
    }

    /// Keeps only pins on displays `isKnown` accepts (a reload onto a rig without the display);
    /// returns the pins dropped.
    mutating func keep(where isKnown: (String) -> Bool) -> [Pin] {
        let dropped = pins.filter { !isKnown($0.display) }
        pins.removeAll { !isKnown($0.display) }
        return dropped
    }
}
