import Glibc

extension Syscall {
    /// ioctl for a request that hands a driver memory of ours to capture into (V4L2's
    /// `VIDIOC_QBUF` with `V4L2_MEMORY_USERPTR`, issue 14's zero-copy forwarding). A driver
    /// that cannot pin that memory (a contiguous-DMA driver given scattered pages, say) answers
    /// EFAULT: that is the driver's refusal, to fall back on, not a bug of ours, so unlike
    /// `ioctl` it is thrown rather than stopped on. EBADF still is a bug.
    @inline(never)
    package static func ioctlLendingMemory(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer, name: @autoclosure () -> String, subject: String? = nil) throws(SystemCallError) {
        while true {
            if Glibc.ioctl(fd, request, argument) != -1 { return }
            let error = Errno.current
            if error == .interrupted { continue }
            precondition(error != .badDescriptor, "\(name()) failed with \(error): a bug in foldcam (descriptor not owned)")
            throw SystemCallError(name(), error, subject: subject)
        }
    }

}
