import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// Hostile and careless clients: oversized lines, garbage, too many clients, readers that stop.
@Suite("foldcamd under abuse", .serialized)
struct AbuseTests {
    static let topicNames = ["directions", "posture", "devices", "virtualCamera", "readiness", "screens"]
    static let allTopics: JSONValue = .array(topicNames.map { .string($0) })

    static func hinge(_ angle: Double) -> JSONValue {
        .params(("hinge", .string("fold")), ("angle", .double(angle)))
    }

    @Test("a line over 64 KiB without a newline gets tooLarge and the connection is closed; one of exactly 64 KiB is served")
    func oversizedLine() throws {
        let daemon = try RunningDaemon()
        let other = try daemon.connect()
        _ = try other.result("hello")

        // Exactly at the limit (without the newline): still a request.
        let request = #"{"id": 1, "method": "hello"}"#
        let padded = request + String(repeating: " ", count: WireProtocol.maximumLineBytes - request.utf8.count)
        let atLimit = try daemon.connect()
        #expect(atLimit.sendLine(padded))
        let accepted = try atLimit.readMessage()
        #expect(accepted[path: "result", "rig"] == .string("duo"), "\(accepted.compactText)")

        let client = try daemon.connect()
        _ = client.sendBytes([UInt8](repeating: UInt8(ascii: "a"), count: WireProtocol.maximumLineBytes + 1024))
        let reply = try client.readMessage()
        #expect(reply[path: "error", "code"] == .string("tooLarge"))
        #expect(reply["id"] == .null)
        #expect(client.waitUntilClosed(), "the daemon must close a connection it cannot resynchronise")

        // Others are unaffected.
        #expect(try other.result("hello")["rig"] == .string("duo"))
        #expect(daemon.waitForLog("request line over 65536 bytes"))
    }

    @Test("garbage bytes, invalid UTF-8 and malformed requests get errors and the connection stays usable")
    func garbage() throws {
        let daemon = try RunningDaemon()
        let client = try daemon.connect()

        let cases: [(bytes: [UInt8], code: String, id: JSONValue)] = [
            ([0x00, 0x01, 0x02] + Array("garbage{{{".utf8), "parseError", .null),
            ([0xFF, 0xFE, 0x80, 0xC0], "parseError", .null),
            (Array(#"{"id": 3, "method": "hello", "params": {"name": ""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8), "parseError", .null),
            (Array(#"{"id": 4, "method": "hel"#.utf8) + [0xED, 0xA0, 0x80] + Array(#"lo"}"#.utf8), "parseError", .null),
            (Array(#"{"id": 5, "method": "hello""#.utf8), "parseError", .null),
            (Array("[1, 2, 3]".utf8), "invalidRequest", .null),
            (Array(#"{"id": 7, "method": 7}"#.utf8), "invalidRequest", .int(7)),
            (Array(#"{"id": 8, "method": "hello", "params": [1]}"#.utf8), "invalidParams", .int(8)),
            (Array(#"{"id": 9, "method": "hello", "extra": true}"#.utf8), "invalidRequest", .int(9)),
            (Array(#"{"id": 10, "method": "simulate.hinge", "params": {"hinge": "fold", "angle": 999}}"#.utf8), "invalidParams", .int(10)),
            (Array(#"{"id": 11, "method": "subscribe", "params": {"topics": ["weather"]}}"#.utf8), "invalidParams", .int(11)),
            (Array(#"{"id": 12, "method": "nothing"}"#.utf8), "unknownMethod", .int(12)),
            (Array(String(repeating: "[", count: 10_000).utf8), "parseError", .null),
        ]
        for (bytes, code, id) in cases {
            #expect(client.sendBytes(bytes + [UInt8(ascii: "\n")]))
            let reply = try client.readMessage()
            #expect(reply[path: "error", "code"] == .string(code), "for \(String(decoding: bytes, as: UTF8.self)): \(reply.compactText)")
            #expect(reply["id"] == id)
            #expect(reply[path: "error", "message"]?.stringValue?.isEmpty == false)
        }
        // Still usable, in order.
        #expect(try client.result("hello")["rig"] == .string("duo"))
        #expect(try client.result("simulate.hinge", Self.hinge(90))["posture"] == .string("halfOpen"))
        #expect(daemon.process.hasExited == false)
    }

    @Test("with the default limit of 256 clients, 300 connect: the first 256 are served, the rest get tooManyClients and are closed")
    func tooManyClients() throws {
        // Debug logging shows when the start-up probe (client 1) has gone, so it holds no slot.
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "logLevel": "debug"}"#)
        #expect(daemon.waitForLog("client 1 disconnected"))
        var clients: [TestClient] = []
        for _ in 0..<300 { clients.append(try daemon.connect()) }

        // Which 44 are refused depends on the order the kernel completes the connections in:
        // ask every client, and count both outcomes.
        for (index, client) in clients.enumerated() {
            client.sendLine(#"{"id": \#(index), "method": "directions", "params": {"display": "outer"}}"#)
        }
        var served: [TestClient] = []
        var refused = 0
        for client in clients {
            let message = try client.readMessage()
            if message[path: "result", "display"] == .string("outer") {
                served.append(client)
            } else {
                #expect(message[path: "error", "code"] == .string("tooManyClients"), "\(message.compactText)")
                #expect(client.waitUntilClosed())
                refused += 1
            }
        }
        #expect(served.count == 256)
        #expect(refused == 44)
        clients = served
        #expect(daemon.waitForLog("serves at most 256 clients (maxClients)"))

        // A slot frees when a client leaves: once the daemon has seen the close (which takes a
        // moment on a loaded machine; until then a newcomer is still refused), one more is served.
        clients[0].close()
        var servedLate = false
        for _ in 0..<200 where !servedLate {
            let late = try daemon.connect()
            if let hello = try? late.result("hello") {
                #expect(hello["rig"] == .string("duo"))
                servedLate = true
            } else {
                usleep(50_000)
            }
        }
        #expect(servedLate, "no client was served within 10 s of one leaving")
    }

    /// Open (160–170°) and closed (10–20°) in turn: every step moves the hinge, the posture, the
    /// viewed display, the direction map and the virtual camera, so each change publishes several
    /// kilobytes of events (tens of megabytes over 10,000 changes if nothing were coalesced).
    static func alternatingAngle(_ step: Int) -> Double {
        step % 2 == 0 ? 170 - Double(step % 100) / 10 : 10 + Double(step % 100) / 10
    }

    /// The value without its `theta` members (the informational angle of each display/camera pair).
    static func withoutTheta(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .object(members): return .object(members.filter { $0.0 != "theta" }.map { ($0.0, withoutTheta($0.1)) })
        case let .array(elements): return .array(elements.map(withoutTheta))
        default: return value
        }
    }

    @Test("a subscriber that never reads while 10,000 changes happen: memory stays bounded and other clients see every final state")
    func neverReadingSubscriber() throws {
        // A long stuck limit: this test is about memory, not about disconnecting.
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "clientStuckSeconds": 600}"#)
        // Three subscribers that never read: without coalescing each would hold its own copy of
        // every event (over 20 MB each).
        let stuckClients = try (0..<3).map { _ in try daemon.connect() }
        for stuck in stuckClients { stuck.sendRequest("subscribe", .params(("topics", Self.allTopics))) }

        let reader = try daemon.connect()
        let subscribeID = reader.sendRequest("subscribe", .params(("topics", Self.allTopics)))
        _ = try reader.reply(to: subscribeID)
        let driver = try daemon.connect()
        // Warm up allocations, then take the first reading.
        for step in 0..<50 { _ = try driver.result("simulate.hinge", Self.hinge(Double(step))) }
        let residentBefore = try daemon.residentKiB()

        // 10,000 changes, pipelined (at most 64 requests in flight), while the reader keeps reading.
        let changes = 10_000
        var sent = 0
        var replies = 0
        var lastByTopic: [String: (seq: Int, data: JSONValue)] = [:]
        var lastSeq = 0
        var outOfOrder = 0
        var readerEvents = 0
        var readerBytes = 0
        func consume(_ lines: [[UInt8]]) throws {
            for line in lines {
                let event = try JSONParser.parse(line)
                guard let topic = event["event"]?.stringValue, case let .int(seq)? = event["seq"], let data = event["data"] else { continue }
                if seq <= lastSeq { outOfOrder += 1 }
                lastSeq = seq
                lastByTopic[topic] = (seq, data)
                readerEvents += 1
                readerBytes += line.count + 1
            }
        }
        // The current values, at seq 0, right after the subscribe reply.
        for _ in Self.topicNames {
            let event = try reader.nextEvent()
            if let topic = event["event"]?.stringValue, let data = event["data"] { lastByTopic[topic] = (0, data) }
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while replies < changes && ContinuousClock.now < deadline {
            while sent < changes && sent - replies < 64 {
                driver.sendRequest("simulate.hinge", Self.hinge(Self.alternatingAngle(sent)))
                sent += 1
            }
            var entries = [pollfd(fd: driver.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0)]
            _ = poll(&entries, 2, 1000)
            for line in driver.availableLines() {
                let reply = try JSONParser.parse(line)
                #expect(reply["result"] != nil, "\(reply.compactText)")
                replies += 1
            }
            try consume(reader.availableLines())
        }
        try #require(replies == changes, "only \(replies) of \(changes) changes were answered in time")
        let final = try driver.result("state")
        guard case let .int(finalSeq)? = final["seq"] else { throw HarnessError("state has no seq") }
        #expect(final[path: "hinges", "fold"]?.numberValue == Self.alternatingAngle(changes - 1))
        #expect(final["posture"] == .string("closed"))

        // The reader catches up to the final seq.
        let catchUp = ContinuousClock.now + .seconds(20)
        while lastSeq < finalSeq && ContinuousClock.now < catchUp {
            var entry = pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 200)
            try consume(reader.availableLines())
        }
        #expect(lastSeq == finalSeq)
        #expect(outOfOrder == 0)
        #expect(readerEvents >= 3 * changes, "every change publishes posture, directions and virtualCamera")
        #expect(readerBytes * stuckClients.count > 2 * 20 * 1024 * 1024, "the changes must produce far more output than the memory bound, or the bound proves nothing")

        let residentAfter = try daemon.residentKiB()
        print("foldcamd VmRSS \(residentBefore) -> \(residentAfter) KiB over \(changes) changes; the reader got \(readerEvents) events, \(readerBytes) bytes")
        let growth = residentAfter - residentBefore
        #expect(growth < 20 * 1024, "VmRSS grew by \(growth) KiB (\(residentBefore) -> \(residentAfter) KiB) with a client that never reads")

        // The final state, as a new subscriber receives it, equals the reader's last events.
        let witness = try daemon.connect()
        _ = try witness.result("subscribe", .params(("topics", Self.allTopics)))
        var current: [String: JSONValue] = [:]
        for _ in Self.topicNames {
            let event = try witness.nextEvent()
            if let topic = event["event"]?.stringValue { current[topic] = event["data"] }
        }
        #expect(current.count == Self.topicNames.count)
        // θ is informational: the daemon does not publish when only θ moves (StateChange ignores
        // it), so the last directions event may carry an older θ. Everything a client acts on
        // must be final.
        for (topic, value) in current {
            #expect(lastByTopic[topic].map { Self.withoutTheta($0.data) } == Self.withoutTheta(value), "reader's last \(topic) event is not the final value")
        }

        // The stuck clients were kept (600 s limit) and, once they read, end at the same final
        // values: their backlog was coalesced to each topic's latest value.
        for stuck in stuckClients {
            var stuckLast: [String: JSONValue] = [:]
            var stuckSeq = 0
            var stuckEvents = 0
            let drainDeadline = ContinuousClock.now + .seconds(20)
            while stuckSeq < finalSeq && ContinuousClock.now < drainDeadline {
                guard let line = stuck.readLine(timeout: .seconds(5)) else { break }
                let message = try JSONParser.parse(line)
                guard let topic = message["event"]?.stringValue, case let .int(seq)? = message["seq"] else { continue }
                #expect(seq > stuckSeq || stuckEvents < Self.topicNames.count, "seq must not go backwards for the slow client")
                stuckSeq = seq
                stuckLast[topic] = message["data"]
                stuckEvents += 1
            }
            #expect(stuckSeq == finalSeq)
            #expect(stuckEvents < readerEvents / 4, "the slow client's backlog was not coalesced: \(stuckEvents) events of \(readerEvents)")
            for (topic, value) in current {
                #expect(stuckLast[topic].map(Self.withoutTheta) == Self.withoutTheta(value), "the slow client's last \(topic) is not the final value")
            }
        }
    }

    @Test("a subscriber that stops reading is disconnected after clientStuckSeconds, with a logged reason; others go on")
    func stuckClientIsDisconnected() throws {
        let daemon = try RunningDaemon(config: #"{"rig": "duo", "clientStuckSeconds": 1}"#)
        let stuck = try daemon.connect()
        _ = try stuck.result("subscribe", .params(("topics", Self.allTopics)))
        let driver = try daemon.connect()

        // Enough changes to fill the socket buffer; then nothing moves for more than a second.
        var step = 0
        let deadline = ContinuousClock.now + .seconds(15)
        while !daemon.stderr.contains("stopped reading") && ContinuousClock.now < deadline {
            for _ in 0..<100 {
                driver.sendRequest("simulate.hinge", Self.hinge(Double(step % 1800) / 10))
                step += 1
            }
            for _ in 0..<100 { _ = driver.readLine() }
            if step >= 1000 { usleep(100_000) }
        }
        #expect(daemon.waitForLog("disconnected: stopped reading for more than"), "stderr:\n\(daemon.stderr)")
        #expect(daemon.stderr.contains("(pid \(getpid())) disconnected"), "the reason names the client's pid")
        #expect(stuck.waitUntilClosed(), "the stuck client's connection must be closed")
        // The driver kept working throughout and still does.
        #expect(try driver.result("hello")["rig"] == .string("duo"))
        #expect(daemon.process.hasExited == false)
    }
}
