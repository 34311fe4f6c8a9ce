/// Connections waiting for a turn, grouped by user. Each pass serves one connection of each
/// user with work, rotating among that user's connections: a user's 16 connections share one
/// turn a pass, as one connection would, so opening more connections buys no more of the loop
/// (docs/security.md, "One user cannot slow the others"). Pure: the server gives the turns.
struct TurnQueue {
    private var waiting: [UInt32: [Int32]] = [:]
    /// Users with a connection waiting, in the order they came.
    private var users: [UInt32] = []
    private(set) var queued: Set<Int32> = []

    var isEmpty: Bool { queued.isEmpty }

    /// Queues a connection behind its user's others; false when it is queued already.
    @discardableResult
    mutating func add(_ connection: Int32, user: UInt32) -> Bool {
        guard queued.insert(connection).inserted else { return false }
        if waiting[user] == nil {
            waiting[user] = []
            users.append(user)
        }
        waiting[user]!.append(connection)
        return true
    }

    /// Forgets a connection (it closed; its descriptor may be reused by another user).
    mutating func remove(_ connection: Int32) {
        guard queued.remove(connection) != nil else { return }
        for user in users {
            guard let index = waiting[user]?.firstIndex(of: connection) else { continue }
            waiting[user]!.remove(at: index)
            if waiting[user]!.isEmpty { forget(user) }
            return
        }
    }

    /// The connections served this pass: the first of each user's, taken off the queue (a
    /// connection with work left is added again and waits behind its user's others).
    mutating func nextPass() -> [Int32] {
        var pass: [Int32] = []
        for user in users {
            let connection = waiting[user]!.removeFirst()
            queued.remove(connection)
            pass.append(connection)
        }
        for user in users where waiting[user]!.isEmpty { forget(user) }
        return pass
    }

    private mutating func forget(_ user: UInt32) {
        waiting[user] = nil
        users.removeAll { $0 == user }
    }
}
