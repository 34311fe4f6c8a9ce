import FoldcamCore
import Synchronization

/// Which cameras face the viewer of one display, as a live sequence: the shape of Apple's
/// direction coordinator. Iterating `directionMaps` connects, yields the display's map right
/// away, then a new map whenever it changes. Daemon restarts are ridden out: the sequence
/// reconnects with backoff, resubscribes, and yields the new map if it differs. It ends only
/// when the iterating task is cancelled.
///
/// ```swift
/// let coordinator = FoldcamDirectionCoordinator(display: "outer")
/// for await map in coordinator.directionMaps {
///     preview.use(camera: map.forward.first, mirrored: map[camera: map.forward.first ?? ""]?.mirror ?? false)
/// }
/// ```
public struct FoldcamDirectionCoordinator: Sendable {
    public let display: String
    public let socketPath: String
    public let backoff: ReconnectBackoff

    public init(display: String, socketPath: String? = nil, backoff: ReconnectBackoff = .standard) {
        self.display = display
        self.socketPath = socketPath ?? FoldcamSocket.defaultPath
        self.backoff = backoff
    }

    /// The display's direction maps: the current one first, then each change. A slow consumer
    /// skips straight to the newest map. A display the rig does not have yields nothing (use
    /// `currentDirectionMap()` to get the daemon's error).
    public var directionMaps: FoldcamSequence<DirectionMap> {
        let display = display
        return FoldcamClient.feed(topics: [.directions], socketPath: socketPath, backoff: backoff, buffering: .bufferingNewest(1), transform: Self.filter(display: display))
    }

    /// One map now, over a short-lived connection; throws the daemon's error for unknown displays.
    public func currentDirectionMap() async throws(FoldcamClientError) -> DirectionMap {
        let connection = try FoldcamConnection(path: socketPath)
        defer { connection.close() }
        return try await connection.directionMap(display: display)
    }

    /// Turns feed updates into maps for `display`, dropping repeats of the last map yielded.
    static func filter(display: String) -> @Sendable (FoldcamFeedUpdate) -> DirectionMap? {
        let last = LastMap()
        return { update in
            guard case let .event(event) = update, event.topic == .directions,
                  let map = DirectionMap(display: display, directions: event.data) else { return nil }
            return last.value.withLock { last in
                guard last != map else { return nil }
                last = map
                return map
            }
        }
    }
}

private final class LastMap: Sendable {
    let value = Mutex<DirectionMap?>(nil)
}
