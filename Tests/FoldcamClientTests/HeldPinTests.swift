import FoldcamClient
import FoldcamCore
import FoldcamTestSupport
import Testing

/// `FoldcamPin`: a pin held on its own connection, made again after the daemon restarts, the
/// gap reported; refused for good when the daemon says the pin is wrong.
@Suite(.serialized)
struct HeldPinTests {
    static let fast = ReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(200))

    @Test func thePinIsBackAfterARestartWithTheGapReported() async throws {
        let daemon = try await SimulatedDaemon()
        let pin = FoldcamPin(display: "outer", socketPath: daemon.socketPath, backoff: Self.fast)
        let holder = Task { () -> ([FoldcamPinUpdate], JSONValue?) in
            var seen: [FoldcamPinUpdate] = []
            var pins = 0
            for await update in pin.updates {
                seen.append(update)
                if case .pinned = update {
                    pins += 1
                    if pins == 1 { try? await daemon.killHard() }
                    // In force on the new daemon while the iteration holds it.
                    if pins == 2 { return (seen, try? await daemon.call("state")) }
                }
                if case .lost = update, seen.filter({ if case .lost = $0 { true } else { false } }).count == 1 {
                    try? await daemon.start()
                }
            }
            return (seen, nil)
        }
        // Generous bound: it ends as soon as the second pin is in force.
        let (seen, state) = try await withTimeout(120, "the pin made again after a restart") { await holder.value }
        guard case let .pinned(firstGap, posture)? = seen.first else { throw HarnessError("first update: \(seen)") }
        #expect(firstGap == nil)
        #expect(posture["pinnedDisplay"] == .string("outer"))
        #expect(seen.contains { if case .lost = $0 { true } else { false } }, "\(seen)")
        guard case let .pinned(gap, _)? = seen.last else { throw HarnessError("last update: \(seen)") }
        #expect(gap.map { $0 > .zero } == true, "the gap is reported: \(seen)")
        #expect(state?["pinnedDisplay"] == .string("outer"), "\(state?.compactText ?? "no state")")
    }

    @Test func aPinTheDaemonRejectsIsRefusedAndEnds() async throws {
        let daemon = try await SimulatedDaemon()
        let pin = FoldcamPin(display: "nowhere", socketPath: daemon.socketPath, backoff: Self.fast)
        let seen = try await withTimeout(30, "a refused pin") {
            var seen: [FoldcamPinUpdate] = []
            for await update in pin.updates { seen.append(update) }
            return seen
        }
        guard seen.count == 1, case let .refused(error) = seen[0] else { throw HarnessError("updates: \(seen)") }
        #expect(error.errorCode == .invalidParams)
    }
}
