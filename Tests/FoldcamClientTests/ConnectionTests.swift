import FoldcamClient
import FoldcamCore
import FoldcamTestSupport
import Testing

/// `FoldcamConnection` against a real `foldcamd --simulate`: requests, replies, errors, events.
@Suite(.serialized)
struct ConnectionTests {
    @Test func requestsAreAnsweredByID() async throws {
        let daemon = try await SimulatedDaemon()
        let connection = try FoldcamConnection(path: daemon.socketPath)
        defer { connection.close() }
        let hello = try await connection.hello()
        #expect(hello["protocol"] == .int(WireProtocol.version))
        #expect(hello["rig"] == .string("duo"))
        #expect(hello["mode"] == .string("simulate"))

        // Many requests in flight at once on one connection: each gets its own reply.
        let results = try await withThrowingTaskGroup(of: (String, JSONValue).self) { group in
            for display in ["inner", "outer", "inner", "outer"] {
                group.addTask { (display, try await connection.request(method: "directions", params: .object([("display", .string(display))]))) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4)
        for (display, result) in results { #expect(result["display"] == .string(display)) }

        let map = try await connection.directionMap(display: "outer")
        #expect(map.display == "outer")
        #expect(!map.forward.isEmpty)
    }

    @Test func daemonErrorsCarryCodeAndMessage() async throws {
        let daemon = try await SimulatedDaemon()
        let connection = try FoldcamConnection(path: daemon.socketPath)
        defer { connection.close() }
        do {
            _ = try await connection.request(method: "no.such.method")
            Issue.record("expected an error")
        } catch {
            #expect(error.errorCode == .unknownMethod)
            #expect(error.description.contains("no.such.method"))
        }
        do {
            _ = try await connection.directionMap(display: "nowhere")
            Issue.record("expected an error")
        } catch {
            #expect(error.errorCode == .invalidParams)
            guard case let .daemon(code, message) = error else { throw error }
            #expect(code == "invalidParams")
            #expect(message.contains("nowhere"))
        }
        // The connection is still usable after errors.
        #expect(try await connection.hello()["rig"] == .string("duo"))
    }

    @Test func absentDaemonIsAClearError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("absent.sock")
        do {
            _ = try FoldcamConnection(path: path)
            Issue.record("connected to nothing")
        } catch {
            #expect(error == .daemonNotRunning(path: path))
            #expect(error.description == "daemon not running at \(path) (start foldcamd or set FOLDCAM_SOCKET)")
        }
    }

    @Test func subscribeSendsCurrentValuesThenChanges() async throws {
        let daemon = try await SimulatedDaemon()
        try await daemon.setHinge(180)
        let connection = try FoldcamConnection(path: daemon.socketPath)
        defer { connection.close() }
        let seq = try await connection.subscribe([.posture, .virtualCamera])
        let events = try await withTimeout(20, "events after subscribe and pin") {
            var iterator = connection.events.makeAsyncIterator()
            var seen: [FoldcamEvent] = []
            // Current values first (in topic order), each with the subscribe reply's seq.
            for _ in 0..<2 { if let event = await iterator.next() { seen.append(event) } }
            _ = try await connection.pinView(display: "outer")
            while let event = await iterator.next() {
                seen.append(event)
                if event.topic == .virtualCamera && seen.count > 2 { break }
            }
            return seen
        }
        #expect(events.prefix(2).map(\.topic) == [.posture, .virtualCamera])
        #expect(events.prefix(2).allSatisfy { $0.seq == seq })
        #expect(events[1].data["source"] == .string("inner-front"))
        // Pinning the outer display moves the virtual camera to the outer front camera.
        #expect(events.last?.data["source"] == .string("outer-front"))
        #expect(zip(events.dropFirst(2), events.dropFirst(3)).allSatisfy { $0.seq < $1.seq })
    }

    @Test func pinChangesTheVirtualCameraSource() async throws {
        let daemon = try await SimulatedDaemon()
        let connection = try FoldcamConnection(path: daemon.socketPath)
        defer { connection.close() }
        #expect(try await connection.state()["virtualCamera"]?["source"] == .string("inner-front"))
        let posture = try await connection.pinView(display: "outer")
        #expect(posture["pinnedDisplay"] == .string("outer"))
        #expect(try await connection.state()["virtualCamera"]?["source"] == .string("outer-front"))
        _ = try await connection.unpinView()
        #expect(try await connection.state()["virtualCamera"]?["source"] == .string("inner-front"))
        let rotated = try await connection.setScreenRotation(display: "outer", degrees: 90)
        #expect(rotated.screenRotation == 90)
    }

    @Test func waitingRequestsFailWhenTheDaemonDies() async throws {
        let daemon = try await SimulatedDaemon()
        let connection = try FoldcamConnection(path: daemon.socketPath)
        defer { connection.close() }
        _ = try await connection.subscribe([.posture])
        // The event stream delivers the current value, then finishes when the daemon dies, and
        // later requests fail with .disconnected.
        let count = try await withTimeout(10, "event stream end") {
            var count = 0
            for await _ in connection.events {
                count += 1
                if count == 1 { try await daemon.killHard() }
            }
            return count
        }
        #expect(count == 1)
        do {
            _ = try await connection.hello()
            Issue.record("request on a dead connection succeeded")
        } catch {
            guard case .disconnected = error else { throw error }
        }
        #expect(connection.closeReason != nil)
    }

    @Test func cancellingARequestReturnsPromptly() async throws {
        let daemon = try await SimulatedDaemon()
        let connection = try FoldcamConnection(path: daemon.socketPath)
        defer { connection.close() }
        let task = Task { try await connection.hello() }
        task.cancel()
        // Either it completed before the cancel landed, or it was cancelled: never hangs.
        _ = try await withTimeout(10, "cancelled request") { _ = try? await task.value }
        #expect(try await connection.hello()["rig"] == .string("duo"))
    }
}
