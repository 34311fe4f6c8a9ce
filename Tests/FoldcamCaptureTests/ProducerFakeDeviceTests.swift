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
        #expect(sink.queued.withLock { $0.last?.first } == 2)
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
        #expect(!events.contains { if case .failed = $0 { true } else { false } })
    }
}
