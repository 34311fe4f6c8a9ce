/// A driver buffer's owner and place: its stream (`CaptureStream.serial`) and its index there.
/// Enough to give it back with no search (`CameraStreams.giveBack`). `page`: the loopback page
/// it is, when its stream captures into the loopback's pages (readers may still be reading it
/// when it is let go).
struct BufferID: Hashable, Sendable {
    let stream: UInt64
    let index: Int
    var page: Int?
}

/// Driver buffers nothing holds any more, on their way back to their drivers: what every
/// operation that lets go of a buffer returns. Non-copyable and checked at its end, so it is
/// given back exactly once (`CameraStreams.giveBack`, or `take()` by whoever queues them
/// itself); one dropped on the floor is a failed assertion in tests, not a camera that slowly
/// runs out of buffers.
struct ReleasedBuffers: ~Copyable {
    private var ids: [BufferID]

    init(_ buffers: [DriverBuffer]) {
        ids = buffers.map(\.id)
    }

    init(ids: [BufferID]) {
        self.ids = ids
    }

    static var none: ReleasedBuffers { ReleasedBuffers(ids: []) }

    var isEmpty: Bool { ids.isEmpty }

    /// Adds `other`'s buffers to these.
    mutating func merge(_ other: consuming ReleasedBuffers) {
        ids += other.take()
    }

    /// The buffers, for the one who queues them; this value is spent.
    consuming func take() -> [BufferID] {
        let taken = ids
        ids = []
        return taken
    }

    deinit {
        assert(ids.isEmpty, "driver buffers \(ids) let go but never given back to their streams")
    }
}
