@testable import FoldcamCapture
import FoldcamPlatform
import FoldcamVideo
import Testing

/// The setup thread without camera hardware: nodes that do not exist, or are not V4L2 devices,
/// exercise its failures, its order and its ending.
@Suite struct CaptureStreamSetupTests {
    static func makeSetup() throws -> CaptureStreamSetup {
        try CaptureStreamSetup(format: .yuyv, width: 64, height: 48, fps: 25)
    }

    /// Everything the setup thread reported until it finished.
    static func results(of setup: CaptureStreamSetup) -> [(camera: String, ticket: UInt64, error: SystemCallError?)] {
        setup.results.drain().compactMap { result in
            switch result {
            case let .opened(camera, ticket, transfer, _):
                transfer.stream.stop()
                return (camera, ticket, nil)
            case let .failed(camera, ticket, error):
                return (camera, ticket, error)
            case .returned:
                // Only streams that captured into loopback pages report this; none here.
                Issue.record("a stream that lent no pages reported them returned")
                return nil
            }
        }
    }

    @Test func opensRunInOrderAndFailuresComeBackWithTheirTicket() throws {
        let setup = try Self.makeSetup()
        let thread = try setup.start()
        setup.requests.post(.open(camera: "gone", node: "/nonexistent/video99", ticket: 7))
        // /dev/null opens, but is no V4L2 device: VIDIOC_S_FMT fails.
        setup.requests.post(.open(camera: "null", node: "/dev/null", ticket: 8))
        setup.requests.post(.finish)
        thread.join()
        let results = Self.results(of: setup)
        #expect(results.map(\.camera) == ["gone", "null"])
        #expect(results.map(\.ticket) == [7, 8])
        #expect(results[0].error?.deviceVanished == true)
        #expect(results[0].error?.subject == "/nonexistent/video99")
        #expect(results[1].error?.deviceVanished == false)
        #expect(results[1].error?.isBusy == false)
        #expect(results[1].error?.call.hasPrefix("VIDIOC_S_FMT") == true)
    }

    @Test func finishSkipsTheOpensStillWaiting() throws {
        let setup = try Self.makeSetup()
        // Posted before the thread runs: by the time it looks, the producer is shutting down.
        setup.requests.post(.open(camera: "late", node: "/dev/null", ticket: 1))
        setup.finish()
        let thread = try setup.start()
        thread.join()
        #expect(Self.results(of: setup).isEmpty)
    }

    @Test func performRunsARequestOnTheCallingThread() throws {
        let setup = try Self.makeSetup()
        #expect(setup.perform(.open(camera: "gone", node: "/nonexistent/video98", ticket: 3)))
        #expect(!setup.perform(.finish))
        let results = Self.results(of: setup)
        #expect(results.count == 1)
        #expect(results.first?.ticket == 3)
        #expect(results.first?.error?.deviceVanished == true)
    }
}
