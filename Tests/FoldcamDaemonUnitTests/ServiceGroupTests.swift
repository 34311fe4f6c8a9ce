@testable import FoldcamDaemon
import FoldcamIO
import Testing

/// `ServiceGroup`: services start in their declared order and stop in reverse, on every path.
@Suite("service group start and stop order")
struct ServiceGroupTests {
    /// What the services did, in order ("start a", "stop a", ...).
    final class Journal {
        var entries: [String] = []
    }

    struct StartRefused: Error {}

    final class Recorder: DaemonService {
        let serviceName: String
        let journal: Journal
        let fails: Bool
        init(_ name: String, _ journal: Journal, fails: Bool = false) {
            serviceName = name
            self.journal = journal
            self.fails = fails
        }
        func start() throws {
            journal.entries.append("start \(serviceName)")
            if fails { throw StartRefused() }
        }
        func applyReload(_ reload: ReloadWorker.Prepared) {}
        func stop() { journal.entries.append("stop \(serviceName)") }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        /// The services in declared order; the one named `failing` throws from `start`.
        var names: [String]
        var failing: String?
        /// The journal after start, then (when the start worked) stop.
        var expected: [String]
        var testDescription: String { "\(names.joined(separator: ","))" + (failing.map { ", \($0) fails" } ?? "") }
    }

    static let cases: [Case] = [
        Case(names: ["a", "b", "c"], failing: nil, expected: ["start a", "start b", "start c", "stop c", "stop b", "stop a"]),
        Case(names: ["a", "b", "c"], failing: "a", expected: ["start a"]),
        Case(names: ["a", "b", "c"], failing: "b", expected: ["start a", "start b", "stop a"]),
        Case(names: ["a", "b", "c"], failing: "c", expected: ["start a", "start b", "start c", "stop b", "stop a"]),
        Case(names: ["a", "b", "c", "d", "e"], failing: "d", expected: ["start a", "start b", "start c", "start d", "stop c", "stop b", "stop a"]),
        Case(names: ["only"], failing: nil, expected: ["start only", "stop only"]),
        Case(names: [], failing: nil, expected: []),
    ]

    @Test("started in declared order, stopped in reverse; a failed start stops the earlier ones and starts no later one", arguments: cases)
    func order(_ test: Case) {
        let journal = Journal()
        let group = ServiceGroup(log: Log(threshold: .error))
        for name in test.names { group.add(Recorder(name, journal, fails: name == test.failing)) }
        var failure: ServiceGroup.StartFailure?
        do {
            try group.start()
        } catch {
            failure = error
        }
        #expect(failure?.service == test.failing)
        if failure == nil {
            #expect(group.startedCount == test.names.count)
            group.stop()
        } else {
            #expect(group.startedCount == 0)
        }
        #expect(journal.entries == test.expected)
    }

    @Test("stopping twice stops each service once")
    func stopTwice() throws {
        let journal = Journal()
        let group = ServiceGroup(log: Log(threshold: .error))
        group.add(Recorder("a", journal))
        group.add(Recorder("b", journal))
        try group.start()
        group.stop()
        group.stop()
        #expect(journal.entries == ["start a", "start b", "stop b", "stop a"])
    }

    @Test("a group that never started stops nothing")
    func stopUnstarted() {
        let journal = Journal()
        let group = ServiceGroup(log: Log(threshold: .error))
        group.add(Recorder("a", journal))
        group.stop()
        #expect(journal.entries.isEmpty)
    }
}
