/// Connections waiting for a turn, with their users. Each pass serves one connection of each
/// user with work, that user's longest-waiting one: a user's 16 connections share one turn a
/// pass, as one connection would, so opening more connections buys no more of the loop
/// (docs/security.md, "One user cannot slow the others"). Pure: the server gives the turns.
///
/// One flat list in the order connections came, searched in order rather than hashed: the
/// connections waiting at one moment are few, and this runs for every request (hash tables and
/// a list per user were most of what queueing one cost).
struct TurnQueue {
    private var waiting: [(connection: Int32, user: UInt32)] = []
    /// The users served in the pass being made (kept, so a pass allocates nothing).
    private var served: [UInt32] = []

    var isEmpty: Bool { waiting.isEmpty }

    /// Queues a connection behind its user's others; false when it is queued already.
    @discardableResult
    mutating func add(_ connection: Int32, user: UInt32) -> Bool {
        guard !waiting.contains(where: { $0.connection == connection }) else { return false }
        waiting.append((connection, user))
        return true
    }

    /// Forgets a connection (it closed; its descriptor may be reused by another user).
    mutating func remove(_ connection: Int32) {
        waiting.removeAll { $0.connection == connection }
    }

    /// The connections served this pass, taken off the queue: each user's longest-waiting one,
    /// in the order they came (a connection with work left is added again, behind the others).
    mutating func nextPass() -> [Int32] {
        var pass: [Int32] = []
        nextPass(into: &pass)
        return pass
    }

    /// `nextPass()` into a buffer the caller keeps (emptied first), so a pass allocates nothing.
    mutating func nextPass(into pass: inout [Int32]) {
        pass.removeAll(keepingCapacity: true)
        served.removeAll(keepingCapacity: true)
        var kept = 0
        // By index: iterating the array itself would hold a second reference to it, and the
        // first write below would copy it.
        for index in waiting.indices {
            let entry = waiting[index]
            if served.contains(entry.user) {
                waiting[kept] = entry
                kept += 1
            } else {
                served.append(entry.user)
                pass.append(entry.connection)
            }
        }
        waiting.removeLast(waiting.count - kept)
    }
}
