import FoldcamCore

/// How long to wait between reconnection attempts: `initial`, doubling up to `maximum`; back
/// to `initial` once a connection is up and subscribed again.
public struct ReconnectBackoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration

    public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(5)) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    public static let standard = ReconnectBackoff()

    func next(after delay: Duration) -> Duration { min(delay * 2, maximum) }
}

/// An `AsyncSequence` that starts its own feed each time it is iterated and stops it when the
/// iterating task is cancelled (or the iterator is dropped). It ends only then.
public struct FoldcamSequence<Element: Sendable>: AsyncSequence, Sendable {
    public typealias AsyncIterator = AsyncStream<Element>.Iterator
    private let start: @Sendable () -> AsyncStream<Element>

    init(_ start: @escaping @Sendable () -> AsyncStream<Element>) {
        self.start = start
    }

    public func makeAsyncIterator() -> AsyncStream<Element>.Iterator {
        start().makeAsyncIterator()
    }
}

/// What a reconnecting feed reports: connection changes and events.
public enum FoldcamFeedUpdate: Sendable, Equatable {
    /// Connected and subscribed; the topics' current values follow as events.
    case connected(path: String)
    case event(FoldcamEvent)
    /// The connection ended or could not be made; the feed retries after the backoff delay.
    case disconnected(FoldcamClientError, retryIn: Duration)
}

/// Entry points for reconnecting feeds.
public enum FoldcamClient {
    /// Every event of `topics`, across daemon restarts: after each (re)connection the current
    /// value of every topic arrives first, so the latest event per topic is always right.
    /// Never ends on its own; cancel the iterating task to stop it.
    public static func events(topics: [Topic], socketPath: String? = nil, backoff: ReconnectBackoff = .standard) -> FoldcamSequence<FoldcamEvent> {
        feed(topics: topics, socketPath: socketPath, backoff: backoff, buffering: .unbounded) { update in
            if case let .event(event) = update { return event }
            return nil
        }
    }

    /// Like `events(topics:)`, plus `.connected` / `.disconnected` updates (for status lines).
    public static func updates(topics: [Topic], socketPath: String? = nil, backoff: ReconnectBackoff = .standard) -> FoldcamSequence<FoldcamFeedUpdate> {
        feed(topics: topics, socketPath: socketPath, backoff: backoff, buffering: .unbounded) { $0 }
    }

    /// A feed whose updates are mapped (nil drops one) and stateful-filtered by `transform`.
    static func feed<Element: Sendable>(
        topics: [Topic], socketPath: String?, backoff: ReconnectBackoff,
        buffering: AsyncStream<Element>.Continuation.BufferingPolicy,
        transform: @escaping @Sendable (FoldcamFeedUpdate) -> Element?
    ) -> FoldcamSequence<Element> {
        FoldcamSequence {
            let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: buffering)
            let task = Task {
                await run(topics: topics, path: socketPath ?? FoldcamSocket.defaultPath, backoff: backoff) { update in
                    if let element = transform(update) { continuation.yield(element) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
            return stream
        }
    }

    /// Connect, subscribe, forward events; on any failure wait and start over. Returns only
    /// when the task is cancelled.
    static func run(topics: [Topic], path: String, backoff: ReconnectBackoff, emit: @Sendable (FoldcamFeedUpdate) -> Void) async {
        var delay = backoff.initial
        while !Task.isCancelled {
            var failure: FoldcamClientError
            do throws(FoldcamClientError) {
                let connection = try FoldcamConnection(path: path)
                defer { connection.close() }
                try await connection.subscribe(topics)
                emit(.connected(path: path))
                delay = backoff.initial
                for await event in connection.events { emit(.event(event)) }
                if Task.isCancelled { return }
                failure = connection.closeReason ?? .disconnected(reason: "the daemon closed the connection")
            } catch {
                if Task.isCancelled { return }
                failure = error
            }
            emit(.disconnected(failure, retryIn: delay))
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
            delay = backoff.next(after: delay)
        }
    }
}
