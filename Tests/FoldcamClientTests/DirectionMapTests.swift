import FoldcamClient
import FoldcamCore
import FoldcamTestSupport
import Foundation
import Testing

/// `FoldcamDirectionCoordinator.directionMaps` and `FoldcamClient.events(topics:)`: a first
/// value at once, then every change, across daemon restarts, until cancelled.
@Suite(.serialized)
struct DirectionMapTests {
    static let fast = ReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(400))

    @Test func firstValueThenEachChange() async throws {
        let daemon = try await SimulatedDaemon()
        try await daemon.setHinge(180)
        let coordinator = FoldcamDirectionCoordinator(display: "outer", socketPath: daemon.socketPath, backoff: Self.fast)
        let (first, folded) = try await withTimeout(20, "direction maps") {
            var maps = coordinator.directionMaps.makeAsyncIterator()
            guard let first = await maps.next() else { throw HarnessError("sequence ended") }
            try await daemon.setHinge(0)
            while let map = await maps.next() {
                if map.forward == ["outer-front"] { return (first, map) }
            }
            throw HarnessError("sequence ended")
        }
        #expect(first.display == "outer")
        #expect(first.forward == ["outer-front", "back"])
        #expect(first.viewed == false)
        #expect(first[camera: "outer-front"]?.mirror == true)
        // Folded shut: only the outer front camera faces the outer display's viewer, and the
        // outer display is the one being viewed.
        #expect(folded.forward == ["outer-front"])
        #expect(folded.backward.contains("back"))
        #expect(folded.viewed)
        #expect(folded[camera: "back"]?.forward == false)
    }

    /// A kiosk that knows only its output: one coordinator per output, as Apple has one per view.
    @Test func aCoordinatorPerOutputFollowsItsDisplay() async throws {
        let directory = try TemporaryDirectory()
        let duo = try #require(RigPresets.json("duo"))
        let outer = #"{"id": "outer", "faces": ["right.B"]}"#
        let inner = #"{"id": "inner", "faces": ["left.A", "right.A"], "anchor": "right"}"#
        #expect(duo.contains(outer) && duo.contains(inner))
        try directory.write("duo-outputs.json", duo
            .replacingOccurrences(of: outer, with: #"{"id": "outer", "faces": ["right.B"], "output": "eDP-2"}"#)
            .replacingOccurrences(of: inner, with: #"{"id": "inner", "faces": ["left.A", "right.A"], "anchor": "right", "output": "eDP-1"}"#))
        let daemon = try await SimulatedDaemon(rig: directory.file("duo-outputs.json"))
        try await daemon.setHinge(180)
        let coordinator = FoldcamDirectionCoordinator(output: "eDP-2", socketPath: daemon.socketPath, backoff: Self.fast)
        let (first, folded) = try await withTimeout(20, "direction maps by output") {
            var maps = coordinator.directionMaps.makeAsyncIterator()
            guard let first = await maps.next() else { throw HarnessError("sequence ended") }
            try await daemon.setHinge(0)
            while let map = await maps.next() {
                if map.forward == ["outer-front"] { return (first, map) }
            }
            throw HarnessError("sequence ended")
        }
        #expect(first.display == "outer" && first.output == "eDP-2" && first.forward == ["outer-front", "back"])
        // Simulate mode observes no DRM: nothing is claimed about the output.
        #expect(first.outputState == "unknown" && first.viewable)
        #expect(folded.viewed && folded.output == "eDP-2")
        let now = try await withTimeout(10, "current map by output") { try await coordinator.currentDirectionMap() }
        #expect(now.display == "outer" && now.forward == ["outer-front"])
        let wrong = FoldcamDirectionCoordinator(output: "eDP-3", socketPath: daemon.socketPath, backoff: Self.fast)
        await #expect {
            _ = try await wrong.currentDirectionMap()
        } throws: { error in
            "\(error)".contains("did you mean") && "\(error)".contains("outputs: eDP-1, eDP-2")
        }
    }

    @Test func repeatsAreNotYielded() async throws {
        let daemon = try await SimulatedDaemon()
        let coordinator = FoldcamDirectionCoordinator(display: "outer", socketPath: daemon.socketPath, backoff: Self.fast)
        let maps = try await withTimeout(20, "direction maps") {
            var iterator = coordinator.directionMaps.makeAsyncIterator()
            var maps: [DirectionMap] = []
            if let map = await iterator.next() { maps.append(map) }
            // Changes the inner display's map only (the outer one stays as it was) ...
            _ = try await daemon.call("setScreenRotation", .object([("display", .string("inner")), ("rotation", .int(90))]))
            // ... then the outer one.
            _ = try await daemon.call("setScreenRotation", .object([("display", .string("outer")), ("rotation", .int(180))]))
            if let map = await iterator.next() { maps.append(map) }
            return maps
        }
        #expect(maps.count == 2)
        #expect(maps.first?.screenRotation == 0)
        #expect(maps.last?.screenRotation == 180)
    }

    @Test func survivesADaemonKilledAndRestarted() async throws {
        let daemon = try await SimulatedDaemon()
        try await daemon.setHinge(0)
        let coordinator = FoldcamDirectionCoordinator(display: "outer", socketPath: daemon.socketPath, backoff: Self.fast)
        let (before, after) = try await withTimeout(30, "direction maps across a restart") {
            var maps = coordinator.directionMaps.makeAsyncIterator()
            guard let before = await maps.next() else { throw HarnessError("sequence ended") }
            try await daemon.killHard()
            // Nothing listens for a while: the sequence keeps retrying, it does not end.
            try await Task.sleep(for: .milliseconds(500))
            try await daemon.start()  // same path; the stale socket file is replaced
            guard let after = await maps.next() else { throw HarnessError("sequence ended after the restart") }
            return (before, after)
        }
        #expect(before.forward == ["outer-front"])
        // The new daemon starts open (duo's initial hinge is 180): both outer cameras face out.
        #expect(after.forward == ["outer-front", "back"])
        // And it keeps following changes on the new daemon.
        let again = try await withTimeout(20, "a change after the restart") {
            var maps = coordinator.directionMaps.makeAsyncIterator()
            _ = await maps.next()
            try await daemon.setHinge(0)
            while let map = await maps.next() {
                if map.forward == ["outer-front"] { return true }
            }
            return false
        }
        #expect(again)
    }

    @Test func cancellationEndsTheSequence() async throws {
        let daemon = try await SimulatedDaemon()
        let coordinator = FoldcamDirectionCoordinator(display: "outer", socketPath: daemon.socketPath, backoff: Self.fast)
        let started = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var count = 0
            for await _ in coordinator.directionMaps {
                count += 1
                started.continuation.yield()
            }
            return count
        }
        _ = try await withTimeout(20, "first map") { for await _ in started.stream { return } }
        consumer.cancel()
        let count = try await withTimeout(10, "sequence end after cancel") { await consumer.value }
        #expect(count >= 1)
    }

    @Test func cancellationEndsTheSequenceWhileReconnecting() async throws {
        let directory = try TemporaryDirectory()
        let coordinator = FoldcamDirectionCoordinator(display: "outer", socketPath: directory.file("nobody.sock"), backoff: Self.fast)
        let consumer = Task {
            for await _ in coordinator.directionMaps {}
            return true
        }
        try await Task.sleep(for: .milliseconds(300))
        consumer.cancel()
        #expect(try await withTimeout(10, "sequence end after cancel") { await consumer.value })
    }

    @Test func genericEventsReconnectAndResendCurrentValues() async throws {
        let daemon = try await SimulatedDaemon()
        let events = FoldcamClient.events(topics: [.posture, .readiness], socketPath: daemon.socketPath, backoff: Self.fast)
        let (first, afterRestart) = try await withTimeout(30, "events across a restart") {
            var iterator = events.makeAsyncIterator()
            var first: [FoldcamEvent] = []
            for _ in 0..<2 { if let event = await iterator.next() { first.append(event) } }
            try await daemon.killHard()
            try await daemon.start()
            var again: [FoldcamEvent] = []
            for _ in 0..<2 { if let event = await iterator.next() { again.append(event) } }
            return (first, again)
        }
        #expect(first.map(\.topic) == [.posture, .readiness])
        #expect(afterRestart.map(\.topic) == [.posture, .readiness])
        #expect(afterRestart.first?.data["posture"] == .string("open"))
    }

    @Test func updatesReportConnectionChanges() async throws {
        let daemon = try await SimulatedDaemon()
        let updates = FoldcamClient.updates(topics: [.readiness], socketPath: daemon.socketPath, backoff: Self.fast)
        let kinds = try await withTimeout(30, "connection updates") {
            var kinds: [String] = []
            var killed = false
            for await update in updates {
                switch update {
                case .connected:
                    kinds.append("connected")
                    if kinds.count > 1 { return kinds }
                case .event:
                    if !killed {
                        killed = true
                        try await daemon.killHard()
                    }
                case let .disconnected(error, _):
                    if kinds.last != "disconnected" {
                        kinds.append("disconnected")
                        if case .daemonNotRunning = error { try await daemon.start() } else if case .disconnected = error { try await daemon.start() }
                    }
                }
            }
            return kinds
        }
        #expect(kinds == ["connected", "disconnected", "connected"])
    }
}
