import FoldcamCore
import FoldcamPlatform
import FoldcamVideo

/// Sharing a camera with other virtual cameras (SharedCameraFeed.swift), on the producer thread.
extension ProducerThread {
    /// Starts handing `feed.camera`'s frames to a guest. A camera this producer no longer
    /// streams (it failed meanwhile) ends the feed at once: the guest tries again.
    func host(_ feed: SharedCameraFeed) {
        let camera = feed.camera
        guard streams[camera] != nil || policy.opening[camera] != nil || synthetic[camera] != nil else {
            return feed.end(.busy, message: "\(camera) is not streaming any more")
        }
        let firstGuest = !shared.isHosted(camera)
        shared.add(feed)
        if let frame = synthetic[camera] { putSynthetic(camera, frame, at: MonotonicClock.nanoseconds) }
        // A stream capturing into the loopback's pages is reopened into its own buffers (before
        // any guest frame; this output repeats its last frame meanwhile, as on a switch).
        if firstGuest { decide(.hosted(camera: camera)) }
    }

    func putSynthetic(_ camera: String, _ frame: VideoFrame, at now: UInt64) {
        frame.bytes.withUnsafeBytes { shared.put(camera, bytes: $0, count: $0.count, timestamp: now) }
    }

    /// At each output tick: the shared feeds' first frames and failures become events, and a
    /// fed camera that comes from another virtual camera's stream is copied out of its feed
    /// (turned on the way). Synthetic cameras hosted here put a frame per tick.
    func tickShared(now: UInt64) {
        for (camera, frame) in synthetic where shared.isHosted(camera) { putSynthetic(camera, frame, at: now) }
        for event in shared.events() {
            if case let .failed(camera, _, _) = event {
                delivered.remove(camera)
            }
            producer.events.post(event)
        }
        guard let camera = feeding, shared.isJoined(camera) else { return }
        let turn = effectiveRotation(rotation), mirror = configuration.mirror
        var released = ReleasedBuffers.none
        let taken = shared.take(camera) { bytes, timestamp, flipped in
            // A frame the host's sensor turned 180° needs 180° less here.
            let transform = FrameTransform.Operation(rotation: flipped ? (turn + 180) % 360 : turn, mirror: mirror)
            released.merge(frame.copy(bytes, timestamp: timestamp, camera: camera, transform: transform))
        }
        release(released, now: now)
        if taken {
            fresh = true
            producer.statistics.withLock { $0.sharedFramesTaken += 1 }
        }
    }
}
