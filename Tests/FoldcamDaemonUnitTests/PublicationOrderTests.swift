import FoldcamCore
@testable import FoldcamDaemon
import FoldcamIO
import Testing

/// One input, one publication: every topic it changes goes out once, in `Topic`'s order
/// (directions, posture, devices, virtualCamera, readiness), with consecutive seqs, whoever
/// asked for it while the input was applied.
@Suite("one publication per input")
struct PublicationOrderTests {
    final class Recorder: EventPublishing {
        var events: [(topic: Topic, seq: Int)] = []
        func publish(_ topic: Topic, seq: Int, data: EncodedJSON) { events.append((topic, seq)) }
        func logForUser(_ uid: UInt32, _ priority: Log.Priority, _ text: String) {}
    }

    static func daemon() throws -> (Daemon, Recorder) {
        let rig = try #require(try RigPresets.rig("duo"))
        let daemon = Daemon(mode: .simulate, rig: rig, metrics: DaemonMetrics(), log: Log(threshold: .error))
        let recorder = Recorder()
        daemon.subscribers = recorder
        return (daemon, recorder)
    }

    static func inStatedOrder(_ events: [(topic: Topic, seq: Int)]) -> Bool {
        let topics = events.map(\.topic)
        return topics == Topic.allCases.filter(topics.contains) && zip(events, events.dropFirst()).allSatisfy { $1.seq == $0.seq + 1 }
    }

    static let inputs: [InputEvent] = [
        .cameraUnplugged(camera: 0),
        .hingeAngle(hinge: 0, degrees: 10),
        .hingeAngle(hinge: 0, degrees: 170),
        .gravity(Vector3(1, 0, 0)),
        .screenRotation(display: 0, degrees: 90),
        .pinView(display: 1),
    ]

    @Test("each input's events are unique, in the stated order, with consecutive seqs", arguments: 0..<inputs.count)
    func order(_ index: Int) throws {
        let (daemon, recorder) = try Self.daemon()
        daemon.apply(Self.inputs[index])
        #expect(!recorder.events.isEmpty)
        #expect(Self.inStatedOrder(recorder.events), "\(recorder.events.map(\.topic))")
    }

    @Test("readiness asked for before the input's directions goes out after them, once")
    func readinessFromInsideAnInput() throws {
        let (daemon, recorder) = try Self.daemon()
        // What a camera controller does while it takes the decision: asks for readiness first.
        daemon.publishing {
            daemon.publish(candidates: [.readiness])
            daemon.apply(.cameraUnplugged(camera: 0))
            daemon.publish(candidates: [.readiness])
        }
        let topics = recorder.events.map(\.topic)
        #expect(topics.contains(.directions) && topics.contains(.readiness))
        #expect(topics.filter { $0 == .readiness }.count == 1)
        #expect(Self.inStatedOrder(recorder.events), "\(topics)")
    }

    @Test("outside an input, a publication goes out at once")
    func immediate() throws {
        let (daemon, recorder) = try Self.daemon()
        daemon.markStopping()
        #expect(recorder.events.map(\.topic) == [.readiness])
    }
}
