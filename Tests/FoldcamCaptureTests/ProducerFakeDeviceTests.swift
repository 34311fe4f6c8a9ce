@testable import FoldcamCapture
import FoldcamCore
import FoldcamVideo
import Testing

/// The whole producer, its thread and its setup thread, against cameras and sinks of the
/// test's own (`FakeCamera`, `FakeWriteSink`, `FakePagedSink`): the frame path and the page
/// moves of the zero-copy path without a kernel. The guest's 88 and 85 run the same on vivid
/// and v4l2loopback.
@Suite struct ProducerFakeDeviceTests {
    typealias Producer = VirtualCameraProducerTests
    static let mode = (width: 64, height: 48)
    static var frameBytes: Int { PixelFormat.yuyv.byteCount(width: mode.width, height: mode.height) }

    static func makeProducer(sink: any FrameSink, log: FakeCameraLog) throws -> VirtualCameraProducer {
        try VirtualCameraProducer(configuration: .init(outputNode: nil, format: .yuyv, width: mode.width, height: mode.height, fps: 50),
                                  sink: sink, cameras: FakeCameraOpener(log: log))
    }

    static func contains(_ event: VirtualCameraProducer.Event) -> ([VirtualCameraProducer.Event]) -> Bool {
        { $0.contains(event) }
    }

    @Test func aCameraWrittenByCopyReachesTheSinkAndItsBuffersComeBack() throws {
        let sink = FakeWriteSink(), log = FakeCameraLog()
        let producer = try Self.makeProducer(sink: sink, log: log)
        producer.send(.open(camera: "inner", source: .device(node: "/fake/7")))
        producer.send(.feed(camera: "inner", rotation: 0))
        producer.start()
        var events = Producer.events(of: producer, until: Self.contains(.firstFrame(camera: "inner")))
        // More frames than the camera has buffers: each one came back to it.
        events += Producer.events(of: producer) { _ in producer.stats.framesFromCameras > 3 * 29 }
        events += Producer.stop(producer)
        #expect(events.contains(.forwarding(camera: nil, path: .copy(.configured))))
        #expect(sink.written.withLock { $0.filter { $0 == 7 }.count } > 3 * 29)
        #expect(log.state.withLock { $0.stops.map(\.camera) } == ["inner"])
        // The copy path keeps its own buffers: the ring's worth, so the ring holds them uncopied.
        #expect(log.state.withLock { $0.opened.map(\.buffers) } == [producer.frames.capacity + VirtualCameraProducer.buffersBeyondRing])
        #expect(log.state.withLock { $0.outstanding["inner"] ?? 0 } <= producer.frames.capacity + VirtualCameraProducer.buffersBeyondRing)
    }

    @Test func aCameraCapturingIntoTheSinksPagesIsQueuedThereAsItIs() throws {
        let sink = FakePagedSink(frameBytes: Self.frameBytes), log = FakeCameraLog()
        let producer = try Self.makeProducer(sink: sink, log: log)
        producer.send(.open(camera: "inner", source: .device(node: "/fake/9")))
        producer.send(.feed(camera: "inner", rotation: 0))
        producer.start()
        var events = Producer.events(of: producer, until: Self.contains(.firstZeroCopyFrame(camera: "inner")))
        // Three pages lent, many frames: the pages went back to the camera one after another.
        events += Producer.events(of: producer) { _ in producer.stats.zeroCopyFrames > 30 }
        events += Producer.stop(producer)
        #expect(events.contains(.forwarding(camera: "inner", path: .zeroCopy)))
        let queued = sink.queued.withLock { $0 }
        let camerasPages = Set(queued.filter { $0.first == 9 }.map(\.page))
        #expect(camerasPages.count == ForwardingPlan.pagesPerStream)
        #expect(log.state.withLock { $0.opened.map(\.lent) } == [true])
        #expect(producer.frame(nearest: Producer.now) != nil)
        #expect(sink.torn.withLock { $0 }.isEmpty)
    }

    /// The fed camera is read at the output tick, not polled: a frame of the last interval is
    /// the newest there is (`ForwardingPlan.isNewestAtTick`, tested on its own), so a tick asks
    /// once; one that fell behind (a starved machine) asks once more to hear EAGAIN. This fake
    /// gives at most one frame per question, so no tick asks more than twice; a fed camera also
    /// polled would be asked about three times a frame (the frame and EAGAIN at the wake-up,
    /// EAGAIN again at the tick) (issue 29).
    @Test func theFedCameraIsReadAtTheTickNotPolled() throws {
        let sink = FakePagedSink(frameBytes: Self.frameBytes), log = FakeCameraLog()
        let producer = try Self.makeProducer(sink: sink, log: log)
        producer.send(.open(camera: "inner", source: .device(node: "/fake/4")))
        producer.send(.feed(camera: "inner", rotation: 0))
        producer.start()
        _ = Producer.events(of: producer, until: Self.contains(.firstZeroCopyFrame(camera: "inner")))
        let before = (asked: log.state.withLock { $0.asked["inner"] ?? 0 }, written: producer.stats.framesWritten)
        _ = Producer.events(of: producer) { _ in producer.stats.framesFromCameras > 40 }
        let after = (asked: log.state.withLock { $0.asked["inner"] ?? 0 }, written: producer.stats.framesWritten)
        _ = Producer.stop(producer)
        // One tick may be under way at either reading.
        #expect(after.asked - before.asked <= 2 * (after.written - before.written + 1))
        #expect(after.written - before.written >= 30)
    }

    /// Idle (issue 29 item 3): once the idle frame is out and the camera has given its pages
    /// back, the pages leave the daemon's memory; a reader's return maps them again before
    /// anything is written into them or lent.
    @Test func idlePagesAreLetGoAndTakenBackBeforeTheNextUse() throws {
        let sink = FakePagedSink(frameBytes: Self.frameBytes), log = FakeCameraLog()
        let producer = try Self.makeProducer(sink: sink, log: log)
        producer.send(.open(camera: "inner", source: .device(node: "/fake/5")))
        producer.send(.feed(camera: "inner", rotation: 0))
        producer.start()
        var events = Producer.events(of: producer, until: Self.contains(.firstZeroCopyFrame(camera: "inner")))
        producer.send(.idle)
        // Not while the camera still holds pages: only once it is closed and they are back.
        // The idle frame went out (the camera's frames begin with its node's number, 5).
        events += Producer.events(of: producer) { _ in sink.queued.withLock { $0.last.map { $0.first != 5 } ?? false } }
        #expect(log.state.withLock { $0.stops.isEmpty })
        #expect(sink.parking.withLock { $0 }.isEmpty, "parked while a camera held pages")
        producer.send(.close(camera: "inner"))
        events += Producer.events(of: producer) { _ in sink.parking.withLock { $0 } == ["park"] }
        let zeroCopyBefore = producer.stats.zeroCopyFrames
        producer.send(.open(camera: "inner", source: .device(node: "/fake/6")))
        producer.send(.feed(camera: "inner", rotation: 0))
        events += Producer.events(of: producer) { _ in producer.stats.zeroCopyFrames > zeroCopyBefore + 5 }
        events += Producer.stop(producer)
        #expect(sink.parking.withLock { $0 } == ["park", "unpark"], "no write or loan while parked")
        #expect(log.state.withLock { $0.opened.map(\.lent) } == [true, true])
        #expect(!events.contains { if case .outputFailed = $0 { true } else { false } })
        // Nor was the camera's page refilled while the idle frame was on its way.
        #expect(sink.torn.withLock { $0 }.isEmpty)
    }

    /// The fold of 88: outer-front opens on its own buffers while inner-front holds the pages,
    /// and moves into them once inner-front is closed and its pages are back.
    @Test func aCameraSwitchedToMovesIntoThePagesOnceTheyAreBack() throws {
        let sink = FakePagedSink(frameBytes: Self.frameBytes), log = FakeCameraLog()
        let producer = try Self.makeProducer(sink: sink, log: log)
        producer.send(.open(camera: "inner", source: .device(node: "/fake/1")))
        producer.send(.feed(camera: "inner", rotation: 0))
        producer.start()
        var events = Producer.events(of: producer, until: Self.contains(.firstZeroCopyFrame(camera: "inner")))
        producer.send(.open(camera: "outer", source: .device(node: "/fake/2")))
        events += Producer.events(of: producer, until: Self.contains(.firstFrame(camera: "outer")))
        producer.send(.feed(camera: "outer", rotation: 0))
        producer.send(.close(camera: "inner"))
        events += Producer.events(of: producer, until: Self.contains(.firstZeroCopyFrame(camera: "outer")))
        events += Producer.stop(producer)
        let forwarding = events.compactMap { event -> ForwardingPath? in
            if case let .forwarding("outer", path) = event { return path }
            return nil
        }
        #expect(forwarding == [.copy(.buffersLent), .zeroCopy])
        #expect(log.state.withLock { $0.opened.map { "\($0.camera) \($0.lent)" } } == ["inner true", "outer false", "outer true"])
        // Outer's own buffers are only until the pages are back: a few, not the ring's worth
        // (which the driver would allocate before the first frame of a cold switch).
        #expect(log.state.withLock { $0.opened.map(\.buffers) }
            == [ForwardingPlan.pagesPerStream, Int(VirtualCameraProducer.transientBufferCount), ForwardingPlan.pagesPerStream])
        #expect(sink.queued.withLock { $0.last?.first } == 2)
        // Inner's page on screen when outer's first copy replaced it was not refilled while shown.
        #expect(sink.torn.withLock { $0 }.isEmpty)
    }

    /// Pre-warm (85): outer-front is fed while inner-front, still open, holds the pages; inner is
    /// reopened on its own buffers and outer moves into the pages.
    @Test func aFedCameraTakesThePagesFromACameraStillOpen() throws {
        let sink = FakePagedSink(frameBytes: Self.frameBytes), log = FakeCameraLog()
        let producer = try Self.makeProducer(sink: sink, log: log)
        producer.send(.open(camera: "inner", source: .device(node: "/fake/1")))
        producer.send(.feed(camera: "inner", rotation: 0))
        producer.start()
        var events = Producer.events(of: producer, until: Self.contains(.firstZeroCopyFrame(camera: "inner")))
        producer.send(.open(camera: "outer", source: .device(node: "/fake/2")))
        events += Producer.events(of: producer, until: Self.contains(.firstFrame(camera: "outer")))
        producer.send(.feed(camera: "outer", rotation: 0))
        events += Producer.events(of: producer, until: Self.contains(.firstZeroCopyFrame(camera: "outer")))
        events += Producer.stop(producer)
        #expect(log.state.withLock { $0.opened.map { "\($0.camera) \($0.lent)" } } == ["inner true", "outer false", "inner false", "outer true"])
        #expect(log.state.withLock { $0.opened.filter { !$0.lent }.map(\.buffers) } == [Int(VirtualCameraProducer.transientBufferCount), Int(VirtualCameraProducer.transientBufferCount)])
        #expect(!events.contains { if case .failed = $0 { true } else { false } })
        #expect(sink.torn.withLock { $0 }.isEmpty)
    }
}
