import FoldcamCore
import FoldcamPlatform

/// One connected client: its partial input line, its pending output, its subscriptions.
///
/// Output has two parts. Replies and events go into `output` while it is short. Once the client
/// falls behind (more than `softLimit` unsent bytes), events wait in `coalesced` instead, one per
/// topic, each replaced by newer values of its topic: a slow reader costs bounded memory and,
/// when it catches up, still receives every topic's latest value.
final class ClientSession {
    let id: Int
    let connection: UnixConnection
    let credentials: PeerCredentials?
    var subscriptions: Set<Topic> = []
    var input: [UInt8] = []
    /// How many bytes at the start of `input` are known to hold no newline.
    var searchedBytes = 0
    private(set) var output: [UInt8] = []
    private var outputStart = 0
    private var coalesced: [Topic: (seq: Int, bytes: [UInt8])] = [:]
    /// When unsent output last shrank (or was first queued); nil when nothing is pending.
    var waitingSince: MonotonicInstant?
    /// Set when the connection must end once the final reply is written.
    var closeAfterFlush = false
    var watchingWritable = false
    /// Not reading: the client's unread replies are over `replyBackpressure`.
    var readPaused = false
    /// Queued for a turn (`TurnQueue`).
    var turnScheduled = false
    /// What the event loop watches this connection for.
    var interest: EventLoop.Interest = .readable
    /// When the client must have finished its request line: set at connect (a client that never
    /// says anything) and when a partial line starts; nil while nothing is half-sent.
    var inputDeadline: MonotonicInstant?
    /// Set when a whole request line was read since the deadline was last looked at.
    var lineCompleted = false {
        didSet { if lineCompleted { hasSpoken = true } }
    }
    /// Whether the client has sent at least one whole request line.
    private(set) var hasSpoken = false
    /// A control-class peer (`Authorizer`): `state` shows it who holds each pin (uid, pid and
    /// command); others see only that a pin exists and where.
    var seesPinOwners = false
    /// It may take snapshots (`frames`): while one such client is connected, past frames are kept.
    var mayTakeFrames = false
    /// Whether this connection counts against its uid's `maxClientsPerUser`.
    var countsAgainstUser = false
    /// The peer shut its writing side: no more requests, but replies owed are still sent.
    var inputEnded = false
    /// Requests answered later (`RequestHandling.handle` returned nil) not yet answered.
    var owedReplies = 0
    /// Until the server drops the client (its descriptor closed, perhaps reused by another).
    var isConnected = true

    static let softLimit = 64 * 1024
    /// While this many bytes of replies are unread, the client's further requests are not read
    /// (backpressure): pipelining cannot make the daemon queue more than one reply past it.
    static let replyBackpressure = 1024 * 1024
    /// Replies are never dropped; a client that lets this much pile up is disconnected. Only
    /// reachable by replies finished after reading paused (snapshots, at most
    /// `SnapshotService.perClient` of them): large enough for those of a 4K frame.
    static let hardLimit = 32 * 1024 * 1024

    init(id: Int, connection: UnixConnection, credentials: PeerCredentials?) {
        self.id = id
        self.connection = connection
        self.credentials = credentials
    }

    var isOverReplyBound: Bool { output.count - outputStart > Self.replyBackpressure }
    var pendingBytes: Int {
        let unsent = output.count - outputStart
        // Asked after every reply: the held-back events are summed only when there are some.
        return coalesced.isEmpty ? unsent : unsent + coalesced.values.reduce(0) { $0 + $1.bytes.count }
    }
    var hasPendingOutput: Bool { outputStart < output.count || !coalesced.isEmpty }

    func enqueueReply(_ line: [UInt8], now: MonotonicInstant) {
        append(line, now: now)
    }

    /// `WireProtocol.replyLine(id:result:)`, written into the output without a line of its own.
    func enqueueReply(id: JSONValue, result: EncodedJSON, now: MonotonicInstant) {
        if waitingSince == nil { waitingSince = now }
        WireProtocol.appendReply(id: id, result: result, to: &output)
    }

    /// Nothing is waiting to be written, and no state a write would change is set: a reply may
    /// go straight to the socket (`sendReplyNow`) instead of through `output`.
    var mayWriteNow: Bool {
        outputStart == output.count && coalesced.isEmpty && !closeAfterFlush && !readPaused && !watchingWritable
    }

    /// `WireProtocol.replyLine(id:result:)` for an integer id, written to the socket at once in
    /// one gathered send: the published value's bytes are shared, not copied into `output`.
    /// Only when `mayWriteNow`. What the socket does not take goes into `output` (`.pending`:
    /// flush it as any reply). `.drained`: all sent, nothing changed.
    func sendReplyNow(id: Int, result: EncodedJSON, now: MonotonicInstant) -> FlushResult {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: WireProtocol.replyHeadCapacity) { headBuffer in
            let headCount = WireProtocol.writeReplyHead(id: id, into: headBuffer)
            let head = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(headBuffer)[..<headCount])
            return result.bytes.withUnsafeBytes { body in
                WireProtocol.replyTail.withUnsafeBytes { tail in
                    let total = head.count + body.count + tail.count
                    let written: Int
                    do throws(SystemCallError) {
                        written = try connection.send(head, body, tail)
                    } catch {
                        return .failed(error)
                    }
                    if written == total { return .drained }
                    // The rest waits in `output`, in order, as a reply appended there would.
                    waitingSince = now
                    var skip = written
                    for part in [head, body, tail] {
                        if skip >= part.count {
                            skip -= part.count
                            continue
                        }
                        output.append(contentsOf: part[skip...])
                        skip = 0
                    }
                    return .pending
                }
            }
        }
    }

    /// An event line shared by every subscriber, written to the socket at once: only when
    /// `mayWriteNow`, as `sendReplyNow`. What the socket does not take goes into `output`.
    func sendEventNow(_ line: [UInt8], now: MonotonicInstant) -> FlushResult {
        let written: Int
        switch line.withUnsafeBytes({ bytes in Result { () throws(SystemCallError) in try connection.send(bytes) } }) {
        case let .success(count): written = count
        case let .failure(error): return .failed(error)
        }
        if written == line.count { return .drained }
        waitingSince = now
        output.append(contentsOf: line[written...])
        return .pending
    }

    func enqueueEvent(_ topic: Topic, seq: Int, line: [UInt8], now: MonotonicInstant) {
        if output.count - outputStart < Self.softLimit && coalesced.isEmpty {
            append(line, now: now)
        } else {
            coalesced[topic] = (seq, line)
            if waitingSince == nil { waitingSince = now }
        }
    }

    private func append(_ line: [UInt8], now: MonotonicInstant) {
        if waitingSince == nil { waitingSince = now }
        output.append(contentsOf: line)
    }

    enum FlushResult { case drained, pending, failed(SystemCallError) }

    /// Writes what the socket takes without blocking.
    func flush(now: MonotonicInstant) -> FlushResult {
        while true {
            if outputStart == output.count {
                output.removeAll(keepingCapacity: output.capacity <= Self.softLimit * 2)
                outputStart = 0
                guard !coalesced.isEmpty else {
                    waitingSince = nil
                    return .drained
                }
                // Caught up: the held-back topics go out, oldest change first.
                for (_, entry) in coalesced.sorted(by: { $0.value.seq < $1.value.seq }) { output.append(contentsOf: entry.bytes) }
                coalesced.removeAll()
            }
            let written: Int
            do {
                written = try output.withUnsafeBytes { try connection.send(UnsafeRawBufferPointer(rebasing: $0[outputStart...])) }
            } catch let error as SystemCallError {
                return .failed(error)
            } catch {
                return .failed(SystemCallError("send", Errno(rawValue: 5)))
            }
            if written == 0 { return .pending }
            outputStart += written
            waitingSince = now
            // Compact occasionally so a long-lived client's buffer does not grow forever.
            if outputStart > Self.softLimit && outputStart * 2 > output.count {
                output.removeFirst(outputStart)
                outputStart = 0
            }
        }
    }
}
