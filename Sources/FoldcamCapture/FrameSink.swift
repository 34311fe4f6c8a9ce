import FoldcamPlatform

/// Where the producer's frames go: v4l2loopback by write (`LoopbackOutput`), v4l2loopback through
/// its own mapped pages (`MappedLoopback`), a test's sink; a PipeWire sink as another
/// conformance. Confined to the producer thread.
protocol FrameSink: AnyObject {
    /// Sends the frame shown this tick; false when it did not go out (a paged sink with no free
    /// page: readers keep the last one).
    func send(_ frame: OutputFrame, policy: inout ForwardingPolicy) throws(SystemCallError) -> Bool
}

/// A sink with pages of its own that cameras can capture into (zero-copy): which page gets
/// what is `ForwardingPolicy`'s call, the sink only lends and queues them.
protocol PagedFrameSink: FrameSink {
    var pageCount: Int { get }
    /// The pages `indices`, lent to `lender`, for the setup thread that starts its stream.
    func lending(_ indices: [Int], to lender: UInt64) -> LentPages
    /// Whether the sink still uses every page as its own (see `MappedLoopback.stillDistinct`).
    func stillDistinct() -> Bool
    /// Carries out a write the policy placed; `bytes`: the daemon's frame, for a copy.
    func perform(_ publish: ForwardingPolicy.PagePublish, copying bytes: UnsafeRawBufferPointer?) throws(SystemCallError)
    /// Lets go of the pages' memory while the producer idles with none of them lent; `unpark`
    /// takes it back before the next write or loan.
    func park()
    func unpark() throws(SystemCallError)
}

extension PagedFrameSink {
    func send(_ frame: OutputFrame, policy: inout ForwardingPolicy) throws(SystemCallError) -> Bool {
        try frame.publish(to: self, policy: &policy)
    }
}

extension LoopbackOutput: FrameSink {
    func send(_ frame: OutputFrame, policy: inout ForwardingPolicy) throws(SystemCallError) -> Bool {
        try frame.write(to: self)
        return true
    }
}

extension MappedLoopback: PagedFrameSink {
    var pageCount: Int { pages.count }
}

/// A sink on its way to the producer thread, which owns it from then on (`@unchecked Sendable`:
/// the test that made it hands it over and only reads what it recorded under its own lock).
struct SinkTransfer: @unchecked Sendable {
    let sink: any FrameSink
}

/// The v4l2loopback sink: opened for writing, and its own buffers mapped when the config and
/// the drivers allow zero-copy (`ForwardingPlan`).
enum LoopbackSink {
    struct Opened {
        let writer: any FrameSink
        /// Set when zero-copy runs.
        let paged: (any PagedFrameSink)?
        /// Which path runs, and why.
        let path: ForwardingPath
    }

    /// Throws what `LoopbackOutput.init` throws.
    static func open(node: String, configuration c: VirtualCameraProducer.Configuration) throws -> Opened {
        let output = try LoopbackOutput(node: node, format: c.format, width: c.width, height: c.height, fps: c.fps)
        let path = ForwardingPlan.outputPath(setting: c.forwarding, mirror: c.mirror)
        guard path == .zeroCopy else { return Opened(writer: output, paged: nil, path: path) }
        switch MappedLoopback.map(output) {
        case let .success(loopback): return Opened(writer: output, paged: loopback, path: .zeroCopy)
        case let .failure(reason): return Opened(writer: output, paged: nil, path: .copy(reason))
        }
    }
}
