import FoldcamCapture
import FoldcamVideo
import Glibc
import Testing

/// The producer without a loopback or camera hardware: device opens that fail (a node that
/// does not exist, /dev/null), synthetic cameras, and its events. Commands sent before
/// `start()` reach the producer thread in one batch, which makes their order deterministic.
@Suite struct VirtualCameraProducerTests {
    static func makeProducer() throws -> VirtualCameraProducer {
        try VirtualCameraProducer(configuration: .init(outputNode: nil, format: .yuyv, width: 64, height: 48, fps: 50))
    }

    /// Collects events until `done` holds for them (or 10 s pass, which fails the test).
    static func events(of producer: VirtualCameraProducer, until done: ([VirtualCameraProducer.Event]) -> Bool) -> [VirtualCameraProducer.Event] {
        var seen: [VirtualCameraProducer.Event] = []
        for _ in 0..<2000 {
            seen += producer.events.drain()
            if done(seen) { return seen }
            usleep(5000)
        }
        Issue.record("waited 10 s in vain; events: \(seen)")
        return seen
    }

    /// Stops the producer and collects events until `.stopped`.
    static func stop(_ producer: VirtualCameraProducer) -> [VirtualCameraProducer.Event] {
        producer.send(.stop)
        return events(of: producer) { $0.contains(.stopped) }
    }

    /// The reason (its raw value) of each camera's failure.
    static func failures(in events: [VirtualCameraProducer.Event]) -> [String: String] {
        var found: [String: String] = [:]
        for case let .failed(camera, reason, _) in events { found[camera] = reason.rawValue }
        return found
    }

    static var now: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    @Test func failedOpensAreReportedWithTheirReason() throws {
        let producer = try Self.makeProducer()
        producer.send(.open(camera: "gone", source: .device(node: "/nonexistent/video97")))
        producer.send(.open(camera: "null", source: .device(node: "/dev/null")))
        producer.start()
        var events = Self.events(of: producer) { Self.failures(in: $0).count == 2 }
        events += Self.stop(producer)
        let failures = Self.failures(in: events)
        #expect(failures["gone"] == "unplugged")
        #expect(failures["null"] == "error")
        let message = events.lazy.compactMap { event -> String? in
            if case let .failed("gone", _, message) = event { return message }
            return nil
        }.first
        #expect(message?.contains("/nonexistent/video97") == true)
        #expect(!events.contains { if case .firstFrame = $0 { true } else { false } })
    }

    @Test func aCameraClosedWhileItsOpenIsOnItsWayReportsNothing() throws {
        let producer = try Self.makeProducer()
        // One batch: "closed" is closed before its open can have come back. The setup thread
        // answers in order, so by the time "later" fails, "closed"'s answer has been handled.
        producer.send(.open(camera: "closed", source: .device(node: "/nonexistent/video96")))
        producer.send(.close(camera: "closed"))
        producer.send(.open(camera: "later", source: .device(node: "/nonexistent/video95")))
        producer.start()
        var events = Self.events(of: producer) { Self.failures(in: $0)["later"] != nil }
        events += Self.stop(producer)
        #expect(Self.failures(in: events) == ["later": "unplugged"])
    }

    @Test func aCameraClosedAndOpenedAgainWhileOpeningIsReportedOnce() throws {
        let producer = try Self.makeProducer()
        // The open still on its way is taken again rather than a second one started.
        producer.send(.open(camera: "again", source: .device(node: "/nonexistent/video94")))
        producer.send(.close(camera: "again"))
        producer.send(.open(camera: "again", source: .device(node: "/nonexistent/video94")))
        producer.send(.open(camera: "marker", source: .device(node: "/nonexistent/video93")))
        producer.start()
        var events = Self.events(of: producer) { Self.failures(in: $0)["marker"] != nil }
        events += Self.stop(producer)
        let failedAgain = events.filter { if case .failed("again", _, _) = $0 { true } else { false } }
        #expect(failedAgain.count == 1)
    }

    @Test func stopWithOpensOnTheirWayStillStops() throws {
        let producer = try Self.makeProducer()
        for index in 0..<5 {
            producer.send(.open(camera: "camera\(index)", source: .device(node: "/dev/null")))
        }
        producer.send(.stop)
        producer.start()
        let events = Self.events(of: producer) { $0.contains(.stopped) }
        #expect(events.last == .stopped)
    }

    @Test func aFedSyntheticCameraReachesTheRingAndTheUnavailableFrameReplacesIt() throws {
        let producer = try Self.makeProducer()
        producer.send(.open(camera: "synthetic", source: .synthetic(index: 1, sensorRotation: 0)))
        producer.send(.feed(camera: "synthetic", rotation: 0))
        producer.start()
        _ = Self.events(of: producer) { $0.contains(.firstFrame(camera: "synthetic")) }
        _ = Self.events(of: producer) { _ in producer.frame(nearest: Self.now)?.source == "synthetic" }
        let expected = SyntheticFrames.unavailableFrame(format: .yuyv, width: 64, height: 48, timestamp: 0)
        producer.send(.feedUnavailable)
        // A frame with no source, not no frame: nearest(to:) is nil while no frame is recent
        // enough (a starved producer thread on a loaded machine), and that is not the answer.
        var shown: VideoFrame?
        _ = Self.events(of: producer) { _ in
            shown = producer.frame(nearest: Self.now)
            return shown != nil && shown?.source == nil
        }
        #expect(shown?.bytes == expected.bytes)
        #expect(producer.stats.framesWritten > 0)
        _ = Self.stop(producer)
    }

    /// Idle: the "camera idle" frame is written once (no camera gave it: snapshots refuse it);
    /// a camera fed afterwards brings the ticks back.
    @Test func idleShowsTheIdleFrameOnceThenACameraResumesTheOutput() throws {
        let producer = try Self.makeProducer()
        producer.send(.idle)
        producer.start()
        _ = Self.events(of: producer) { _ in producer.stats.framesWritten >= 1 }
        let idle = producer.frame(nearest: Self.now)
        #expect(idle != nil && idle?.source == nil)
        producer.send(.open(camera: "synthetic", source: .synthetic(index: 1, sensorRotation: 0)))
        producer.send(.feed(camera: "synthetic", rotation: 0))
        _ = Self.events(of: producer) { $0.contains(.firstFrame(camera: "synthetic")) }
        _ = Self.events(of: producer) { _ in producer.stats.framesFromCameras >= 3 }
        #expect(producer.frame(nearest: Self.now)?.source == "synthetic")
        _ = Self.stop(producer)
    }
}

/// One capture, two outputs (SharedCameraFeed.swift): a guest producer shows the frames of a
/// camera the host producer streams, without opening it.
@Suite struct SharedCameraProducerTests {
    typealias T = VirtualCameraProducerTests

    /// A host producer streaming the synthetic camera "front" and a guest shown it through a
    /// feed, both started. `hostShows`: false leaves the host idle (nobody reads it), so the
    /// camera stays open only for the guest.
    static func startSharing(hostShows: Bool) throws -> (host: VirtualCameraProducer, guest: VirtualCameraProducer, feed: SharedCameraFeed) {
        let host = try T.makeProducer(), guest = try T.makeProducer()
        let feed = SharedCameraFeed(camera: "front", host: "host")
        if !hostShows { host.send(.idle) }
        host.send(.open(camera: "front", source: .synthetic(index: 1, sensorRotation: 0)))
        if hostShows { host.send(.feed(camera: "front", rotation: 0)) }
        host.send(.share(feed))
        guest.send(.open(camera: "front", source: .shared(feed)))
        guest.send(.feed(camera: "front", rotation: 0))
        host.start()
        guest.start()
        return (host, guest, feed)
    }

    @Test func twoProducersFedFromOneCameraBothGetFramesAndItIsOpenedOnce() throws {
        let (host, guest, feed) = try Self.startSharing(hostShows: true)
        _ = T.events(of: host) { $0.contains(.firstFrame(camera: "front")) }
        _ = T.events(of: guest) { $0.contains(.firstFrame(camera: "front")) }
        _ = T.events(of: guest) { _ in guest.stats.sharedFramesTaken >= 5 && host.stats.framesFromCameras >= 5 }
        #expect(guest.frame(nearest: T.now)?.source == "front")
        #expect(host.frame(nearest: T.now)?.source == "front")
        // The guest shows the host's very picture; only the host opened the camera.
        let expected = SyntheticFrames.cameraFrame(id: "front", index: 1, sensorRotation: 0, format: .yuyv, width: 64, height: 48, timestamp: 0)
        #expect(guest.frame(nearest: T.now)?.bytes == expected.bytes)
        #expect(host.stats.camerasOpened == 1)
        #expect(guest.stats.camerasOpened == 0)
        #expect(feed.framesPut >= 5)
        _ = T.stop(guest)
        _ = T.stop(host)
    }

    @Test func theHostKeepsFeedingAGuestWhileIdleAndItsEndIsTheGuestsFailure() throws {
        // The host shows nothing itself (nobody reads it): the camera stays open for the guest.
        let (host, guest, _) = try Self.startSharing(hostShows: false)
        _ = T.events(of: guest) { $0.contains(.firstFrame(camera: "front")) }
        _ = T.events(of: guest) { _ in guest.frame(nearest: T.now)?.source == "front" }
        // The host closes it (nobody needs it, say): the guest reports its camera failed and
        // keeps its last frame rather than a gap.
        host.send(.close(camera: "front"))
        let events = T.events(of: guest) { T.failures(in: $0)["front"] != nil }
        #expect(T.failures(in: events)["front"] == "busy")
        let message = events.lazy.compactMap { event -> String? in
            if case let .failed("front", _, message) = event { return message }
            return nil
        }.first
        #expect(message?.contains("virtual camera host") == true)
        #expect(guest.frame(nearest: T.now)?.source == "front")
        _ = T.stop(guest)
        _ = T.stop(host)
    }

    @Test func aShareOfACameraTheHostDoesNotStreamEndsAtOnce() throws {
        let host = try T.makeProducer(), guest = try T.makeProducer()
        let feed = SharedCameraFeed(camera: "gone", host: "host")
        host.send(.share(feed))
        guest.send(.open(camera: "gone", source: .shared(feed)))
        guest.send(.feed(camera: "gone", rotation: 0))
        host.start()
        guest.start()
        let events = T.events(of: guest) { T.failures(in: $0)["gone"] != nil }
        #expect(!events.contains(.firstFrame(camera: "gone")))
        #expect(feed.framesPut == 0)
        _ = T.stop(guest)
        _ = T.stop(host)
    }
}
