@testable import FoldcamDaemon
import Testing

/// `TurnQueue`: one turn per user per pass, however many connections the user has.
@Suite("turns shared per user")
struct TurnQueueTests {
    struct Step: CustomTestStringConvertible, Sendable {
        let name: String
        /// Connections queued before the passes, as (connection, user).
        let queued: [(Int32, UInt32)]
        /// Connections that still have work after their turn, queued again at once.
        let busy: Set<Int32>
        /// The connections each pass serves, in order.
        let passes: [[Int32]]
        var testDescription: String { name }
    }

    static let steps: [Step] = [
        Step(name: "one user's 16 connections get one turn a pass, a second user one too",
             queued: (10..<26).map { ($0, 65534) } + [(3, 0)], busy: Set(10..<26),
             passes: [[10, 3], [11], [12], [13]]),
        Step(name: "a user's connections take turns in the order they came",
             queued: [(5, 1), (6, 1), (7, 2)], busy: [5, 6, 7],
             passes: [[5, 7], [6, 7], [5, 7], [6, 7]]),
        Step(name: "a connection queued twice is served once",
             queued: [(5, 1), (5, 1), (6, 2)], busy: [],
             passes: [[5, 6], []]),
        Step(name: "users with nothing left drop out of the pass",
             queued: [(5, 1), (6, 2), (7, 2)], busy: [],
             passes: [[5, 6], [7], []]),
    ]

    @Test(arguments: steps)
    func passes(step: Step) {
        var queue = TurnQueue()
        for (connection, user) in step.queued { queue.add(connection, user: user) }
        let users = Dictionary(step.queued.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        for expected in step.passes {
            let pass = queue.nextPass()
            #expect(pass == expected)
            for connection in pass where step.busy.contains(connection) { queue.add(connection, user: users[connection]!) }
        }
    }

    @Test func aClosedConnectionLeavesTheQueueAndItsUserWithIt() {
        var queue = TurnQueue()
        queue.add(5, user: 1)
        queue.add(6, user: 2)
        queue.remove(5)
        #expect(queue.nextPass() == [6])
        #expect(queue.isEmpty)
        // The descriptor is reused by another user's connection: it waits as that user's.
        queue.add(5, user: 3)
        #expect(queue.nextPass() == [5])
    }
}
