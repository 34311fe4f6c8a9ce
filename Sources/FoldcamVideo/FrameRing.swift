/// The most recent frames, for zero-shutter-lag snapshots: a snapshot names a moment and gets
/// the frame captured nearest to it. Slots are reused, so steady streaming allocates nothing.
public struct FrameRing: Sendable {
    private var slots: [VideoFrame?]
    private var next = 0
    /// How far back the ring reaches, in nanoseconds.
    public let span: UInt64

    /// Holds `span` nanoseconds of frames at up to `fps` frames per second.
    public init(span: UInt64, fps: Double) {
        self.span = span
        let capacity = max(2, Int((Double(span) / 1e9 * fps).rounded(.up)) + 1)
        slots = Array(repeating: nil, count: capacity)
    }

    public var capacity: Int { slots.count }
    public var count: Int { slots.count { $0 != nil } }

    /// Stores a copy of `frame`, reusing the oldest slot's storage when sizes match.
    public mutating func append(_ frame: VideoFrame) {
        if var reused = slots[next], reused.bytes.count == frame.bytes.count {
            slots[next] = nil  // release the slot's reference so the copy below writes in place
            reused.bytes.withUnsafeMutableBufferPointer { destination in
                frame.bytes.withUnsafeBufferPointer { source in _ = destination.update(fromContentsOf: source) }
            }
            reused.format = frame.format
            reused.width = frame.width
            reused.height = frame.height
            reused.timestamp = frame.timestamp
            reused.source = frame.source
            slots[next] = reused
        } else {
            slots[next] = frame
        }
        next = (next + 1) % slots.count
    }

    /// The frame whose timestamp is nearest `timestamp`, if any frame is at most `span` from it.
    public func nearest(to timestamp: UInt64) -> VideoFrame? {
        var best: VideoFrame?
        var bestDistance = UInt64.max
        for case let frame? in slots {
            let distance = frame.timestamp > timestamp ? frame.timestamp - timestamp : timestamp - frame.timestamp
            if distance < bestDistance {
                best = frame
                bestDistance = distance
            }
        }
        return bestDistance <= span ? best : nil
    }

    /// The newest frame.
    public var latest: VideoFrame? {
        slots[(next + slots.count - 1) % slots.count]
    }
}
