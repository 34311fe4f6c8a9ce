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
///
/// A kiosk that knows only its window's output (Wayland `wl_output` name, X11 RandR output
/// name) asks by output: `FoldcamDirectionCoordinator(output: "eDP-2")`, one coordinator per
/// output as Apple has one per view. Its maps are those of the rig display on that output.
public struct FoldcamDirectionCoordinator: Sendable {
    /// The display asked for by id, or nil when asked by output.
    public let display: String?
    /// The DRM connector name asked for, or nil when asked by display.
    public let output: String?
    public let socketPath: String
    public let backoff: ReconnectBackoff

    public init(display: String, socketPath: String? = nil, backoff: ReconnectBackoff = .standard) {
        self.display = display
        output = nil
        self.socketPath = socketPath ?? FoldcamSocket.defaultPath
        self.backoff = backoff
    }

    public init(output: String, socketPath: String? = nil, backoff: ReconnectBackoff = .standard) {
        display = nil
        self.output = output
        self.socketPath = socketPath ?? FoldcamSocket.defaultPath
        self.backoff = backoff
    }

    /// The display's direction maps: the current one first, then each change. A slow consumer
    /// skips straight to the newest map. A display the rig does not have yields nothing (use
    /// `currentDirectionMap()` to get the daemon's error). By output, the display is looked up
    /// in each event, so a reloaded rig that moves the output is followed.
    public var directionMaps: FoldcamSequence<DirectionMap> {
        FoldcamClient.feed(topics: [.directions], socketPath: socketPath, backoff: backoff, buffering: .bufferingNewest(1),
                           transform: Self.filter(display: display, output: output))
    }

    /// One map now, over a short-lived connection; throws the daemon's error for unknown displays.
    public func currentDirectionMap() async throws(FoldcamClientError) -> DirectionMap {
        let connection = try FoldcamConnection(path: socketPath)
        defer { connection.close() }
        if let output { return try await connection.directionMap(output: output) }
        return try await connection.directionMap(display: display ?? "")
    }

    /// Turns feed updates into maps for `display` (or the display on `output`), dropping repeats
    /// of the last map yielded.
    static func filter(display: String?, output: String? = nil) -> @Sendable (FoldcamFeedUpdate) -> DirectionMap? {
        let last = LastMap()
        return { update in
            guard case let .event(event) = update, event.topic == .directions,
                  let id = display ?? output.flatMap({ DirectionMap.display(onOutput: $0, directions: event.data) }),
                  let map = DirectionMap(display: id, directions: event.data) else { return nil }
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
