import CV4L2
import FoldcamPlatform

/// V4L2's streaming verbs (REQBUFS, QUERYBUF, QBUF, DQBUF, STREAMON/OFF), typed: a queue knows
/// its direction (what the device fills, or what it takes) and its memory (the driver's buffers
/// mapped, or memory of ours lent to the driver), so a capture buffer cannot be queued as an
/// output one, nor a mapped buffer queued with a user pointer.
/// - SeeAlso: https://docs.kernel.org/userspace-api/media/v4l/buffer.html
package protocol V4L2QueueDirection {
    static var bufferType: UInt32 { get }
    static var name: String { get }
}

/// The side of a device that the driver fills: a camera's.
package enum V4L2Capture: V4L2QueueDirection {
    package static var bufferType: UInt32 { cv4l2_BUF_TYPE_VIDEO_CAPTURE }
    package static var name: String { "capture" }
}

/// The side of a device that takes frames: a loopback's writer side.
package enum V4L2Output: V4L2QueueDirection {
    package static var bufferType: UInt32 { cv4l2_BUF_TYPE_VIDEO_OUTPUT }
    package static var name: String { "output" }
}

package protocol V4L2QueueMemory {
    static var memory: UInt32 { get }
    static var name: String { get }
}

/// `V4L2_MEMORY_MMAP`: the driver's own buffers, mapped into the process.
package enum V4L2Mapped: V4L2QueueMemory {
    package static var memory: UInt32 { cv4l2_MEMORY_MMAP }
    package static var name: String { "MMAP" }
}

/// `V4L2_MEMORY_USERPTR`: memory of ours the driver fills or reads (zero-copy into a loopback page).
package enum V4L2UserPointer: V4L2QueueMemory {
    package static var memory: UInt32 { cv4l2_MEMORY_USERPTR }
    package static var name: String { "USERPTR" }
}

/// A buffer the driver handed back (VIDIOC_DQBUF).
package struct V4L2DequeuedBuffer: Equatable, Sendable {
    package let index: Int
    /// 0 when the driver did not say (then the whole buffer).
    package let bytesUsed: Int
    /// When it was captured, CLOCK_MONOTONIC nanoseconds.
    package let timestamp: UInt64
}

/// One buffer queue of an open device, by direction and memory kind. A view on the device: it
/// holds no state of its own, and belongs to the device's thread as the device does.
package struct V4L2BufferQueue<Direction: V4L2QueueDirection, Memory: V4L2QueueMemory> {
    package let device: V4L2Device

    package init(_ device: V4L2Device) {
        self.device = device
    }

    private var label: String { "\(Direction.name), \(Memory.name)" }

    /// VIDIOC_REQBUFS for `count` buffers; how many the driver granted (it may give fewer, or
    /// more). 0 frees them (after STREAMOFF, or before streaming).
    @discardableResult
    package func request(_ count: Int) throws(SystemCallError) -> Int {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = Direction.bufferType
        request.memory = Memory.memory
        try device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS(\(label), \(count))", &request)
        return Int(request.count)
    }

    /// REQBUFS 0, for cleanup: the driver drops its buffers, or its hold on ours.
    package func release() {
        _ = try? request(0)
    }

    package func streamOn() throws(SystemCallError) {
        var type = Int32(Direction.bufferType)
        try device.control(cv4l2_VIDIOC_STREAMON, "VIDIOC_STREAMON(\(Direction.name))", &type)
    }

    /// STREAMOFF: the driver lets go of every buffer queued.
    package func streamOff() throws(SystemCallError) {
        var type = Int32(Direction.bufferType)
        try device.control(cv4l2_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF(\(Direction.name))", &type)
    }

    /// The next buffer the driver is done with; nil when none is (EAGAIN, on a non-blocking
    /// descriptor).
    package func dequeue() throws(SystemCallError) -> V4L2DequeuedBuffer? {
        var buffer = v4l2_buffer()
        buffer.type = Direction.bufferType
        buffer.memory = Memory.memory
        guard try device.control(cv4l2_VIDIOC_DQBUF, "VIDIOC_DQBUF(\(label))", &buffer, unlessFailingWith: [.wouldBlock]) else { return nil }
        let timestamp = UInt64(buffer.timestamp.tv_sec) * 1_000_000_000 + UInt64(buffer.timestamp.tv_usec) * 1000
        return V4L2DequeuedBuffer(index: Int(buffer.index), bytesUsed: Int(buffer.bytesused), timestamp: timestamp)
    }

    fileprivate func buffer(_ index: Int) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = Direction.bufferType
        buffer.memory = Memory.memory
        return buffer
    }
}

/// A driver buffer's place in the device's memory (VIDIOC_QUERYBUF), for mmap.
package struct V4L2BufferPlace: Equatable, Sendable {
    package let offset: UInt32
    package let length: Int
}

extension V4L2BufferQueue where Memory == V4L2Mapped {
    /// VIDIOC_QUERYBUF: where buffer `index` lies (fails before REQBUFS on most drivers).
    package func query(_ index: Int) throws(SystemCallError) -> V4L2BufferPlace {
        var buffer = buffer(index)
        try device.control(cv4l2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF(\(label), \(index))", &buffer)
        return V4L2BufferPlace(offset: buffer.m.offset, length: Int(buffer.length))
    }

    /// Maps buffer `index` at `place`; unmap with `Syscall.unmap`.
    package func map(_ index: Int, at place: V4L2BufferPlace) throws(SystemCallError) -> UnsafeMutableRawPointer {
        try device.mapBuffer(length: place.length, offset: Int(place.offset), index: UInt32(index))
    }

    /// VIDIOC_QBUF of buffer `index`; `bytesUsed`: how much of it holds a frame (output).
    package func queue(_ index: Int, bytesUsed: Int = 0) throws(SystemCallError) {
        var buffer = buffer(index)
        buffer.bytesused = UInt32(bytesUsed)
        try device.control(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF(\(label))", &buffer)
    }
}

extension V4L2BufferQueue where Memory == V4L2UserPointer {
    /// VIDIOC_QBUF of slot `index` with our memory at `address`: the driver fills it. A driver
    /// that cannot take that memory may answer EFAULT, thrown like any refusal.
    package func queue(_ index: Int, memory address: UnsafeMutableRawPointer, length: Int) throws(SystemCallError) {
        var buffer = buffer(index)
        buffer.m.userptr = UInt(bitPattern: address)
        buffer.length = UInt32(length)
        try device.controlLendingMemory(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF(\(label) into memory of ours)", &buffer)
    }
}

extension V4L2Device {
    /// The device's queue of `direction` with `memory`: `device.queue(V4L2Capture.self, V4L2Mapped.self)`.
    package func queue<Direction: V4L2QueueDirection, Memory: V4L2QueueMemory>(_ direction: Direction.Type, _ memory: Memory.Type) -> V4L2BufferQueue<Direction, Memory> {
        V4L2BufferQueue(self)
    }
}
