import CV4L2
import FoldcamPlatform

/// An open V4L2 node: the only owner of its descriptor, which never leaves it. Every failure is
/// a `SystemCallError` naming the node and the request ("/dev/video3: VIDIOC_S_FMT failed: ...").
/// Not thread-safe: it belongs to one thread at a time.
/// - SeeAlso: https://docs.kernel.org/userspace-api/media/v4l/user-func.html
package final class V4L2Device {
    /// How calls reach the driver.
    package enum Access: Sendable {
        /// Plain kernel calls through FoldcamPlatform: streaming, where frames must stay zero-copy.
        case kernel
        /// Through libv4l2 (man v4l2_open(3)), which works around driver quirks: probing.
        /// libv4l2 is a C library that makes the system calls itself; its calls stay here.
        case libv4l2
    }

    /// `v4l2_capability.driver` of every v4l2loopback device.
    package static let loopbackDriverName = "v4l2 loopback"

    package let node: String
    let access: Access
    private let fd: Int32
    /// Set for `.libv4l2` access: the library the calls go through.
    private let library: LibV4L2?
    private var isOpen = true

    /// Opens read-write; `nonBlocking` for probes and streams, which must never wait on a driver.
    package init(node: String, access: Access, nonBlocking: Bool) throws(SystemCallError) {
        self.node = node
        self.access = access
        let flags = OpenFlags.readWrite | (nonBlocking ? OpenFlags.nonBlocking : 0)
        switch access {
        case .kernel:
            library = nil
            fd = try Syscall.open(node, flags, subject: node)
        case .libv4l2:
            let library: LibV4L2
            do { library = try LibV4L2.load() } catch {
                // Only a broken install lacks it (the package depends on libv4l-0).
                throw SystemCallError("dlopen \(LibV4L2.soname) (install libv4l-0)", .libraryInaccessible, subject: node)
            }
            self.library = library
            fd = try Syscall.check("open", subject: node) { cv4l2_open(library.open, node, flags | OpenFlags.closeOnExec) }
        }
    }

    deinit { close() }

    /// Closes now rather than when the last reference goes (v4l2loopback acts on the close).
    package func close() {
        guard isOpen else { return }
        isOpen = false
        switch access {
        case .kernel: Syscall.close(fd)
        case .libv4l2: _ = cv4l2_close(library!.close, fd)  // nothing to do about a failed close of a probe handle
        }
    }

    /// The node's device number, as sysfs (`/sys/dev/char/MAJOR:MINOR`) and the media graph name it.
    package func deviceNumber() throws(SystemCallError) -> (major: UInt32, minor: UInt32) {
        let device = UInt64(try Syscall.fileStatus(fd, subject: node).st_rdev)
        let major = UInt32(truncatingIfNeeded: ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff))
        let minor = UInt32(truncatingIfNeeded: (device & 0xff) | ((device >> 12) & ~0xff))
        return (major, minor)
    }

    /// The descriptor, for poll(2) only.
    package var pollDescriptor: Int32 { fd }

    /// One ioctl with `argument` (an imported V4L2 struct or integer), retried on EINTR. When it
    /// fails with `expected` (EINVAL at the end of an enumeration, EAGAIN when no buffer is
    /// ready) it returns false instead of throwing.
    @discardableResult
    @inline(never)
    package func control<T>(_ request: UInt, _ name: @autoclosure () -> String, _ argument: inout T, unlessFailingWith expected: Set<Errno> = []) throws(SystemCallError) -> Bool {
        precondition(isOpen, "\(node): \(name()) on a closed device")
        let fd = fd
        let access = access
        let library = library
        let node = node
        do {
            try withUnsafeMutablePointer(to: &argument) { pointer throws(SystemCallError) in
                let raw = UnsafeMutableRawPointer(pointer)
                switch access {
                case .kernel:
                    try Syscall.ioctl(fd, request, raw, name: name(), subject: node)
                case .libv4l2:
                    _ = try Syscall.check(name(), subject: node) { cv4l2_ioctl(library!.ioctl, fd, request, raw) }
                }
            }
            return true
        } catch {
            if expected.contains(error.errno) { return false }
            throw error
        }
    }

    /// One ioctl that lends the driver memory of ours (VIDIOC_QBUF with V4L2_MEMORY_USERPTR): a
    /// driver that cannot take that memory may answer EFAULT, which is thrown like any refusal.
    package func controlLendingMemory<T>(_ request: UInt, _ name: @autoclosure () -> String, _ argument: inout T) throws(SystemCallError) {
        precondition(isOpen && access == .kernel, "\(node): \(name()) on a closed or libv4l2 device")
        let fd = fd
        let node = node
        try withUnsafeMutablePointer(to: &argument) { pointer throws(SystemCallError) in
            try Syscall.ioctlLendingMemory(fd, request, UnsafeMutableRawPointer(pointer), name: name(), subject: node)
        }
    }

    /// Maps a driver buffer (VIDIOC_QUERYBUF's offset and length); unmap with `Syscall.unmap`.
    package func mapBuffer(length: Int, offset: Int, index: UInt32) throws(SystemCallError) -> UnsafeMutableRawPointer {
        try Syscall.mapShared(fd, length: length, offset: offset, name: "mmap buffer \(index)", subject: node)
    }

    /// Writes a whole frame (v4l2loopback takes frames through write()).
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        try Syscall.writeAll(fd, from: bytes, subject: node)
    }

    /// VIDIOC_QUERYCAP's answer as it came: strings still C arrays.
    package func queryCapability() throws(SystemCallError) -> v4l2_capability {
        var capability = v4l2_capability()
        try control(cv4l2_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &capability)
        return capability
    }

    /// Driver, card and this node's capabilities (`device_caps`, or `capabilities` from drivers
    /// too old to have it), with the strings read up to their NUL.
    package func identity() throws(SystemCallError) -> (driver: String, card: String, capabilities: UInt32) {
        let capability = try queryCapability()
        let driver = withUnsafeBytes(of: capability.driver) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let card = withUnsafeBytes(of: capability.card) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return (driver, card, Self.nodeCapabilities(capability))
    }

    package static func nodeCapabilities(_ capability: v4l2_capability) -> UInt32 {
        capability.capabilities & cv4l2_CAP_DEVICE_CAPS != 0 ? capability.device_caps : capability.capabilities
    }

    /// Whether a control exists and is enabled (`VIDIOC_QUERYCTRL`; EINVAL means absent, and
    /// ENOTTY that the node has no controls at all: vimc's capture nodes and scaler sub-device
    /// have no control handler, and the V4L2 core answers ENOTTY for them).
    package func hasControl(_ id: UInt32, name: @autoclosure () -> String) throws(SystemCallError) -> Bool {
        var query = v4l2_queryctrl()
        query.id = id
        guard try control(cv4l2_VIDIOC_QUERYCTRL, "VIDIOC_QUERYCTRL(\(name()))", &query, unlessFailingWith: [.invalidArgument, .notTTY]) else { return false }
        return query.flags & cv4l2_CTRL_FLAG_DISABLED == 0
    }

    /// A control's value, or nil when the device lacks it (`VIDIOC_QUERYCTRL` then `VIDIOC_G_CTRL`).
    package func controlValue(_ id: UInt32, name: String) throws(SystemCallError) -> Int? {
        guard try hasControl(id, name: name) else { return nil }
        var control = v4l2_control()
        control.id = id
        try self.control(cv4l2_VIDIOC_G_CTRL, "VIDIOC_G_CTRL(\(name))", &control)
        return Int(control.value)
    }

    package func setControl(_ id: UInt32, _ value: Int32, name: String) throws(SystemCallError) {
        var setting = v4l2_control(id: id, value: value)
        try control(cv4l2_VIDIOC_S_CTRL, "VIDIOC_S_CTRL \(name)", &setting)
    }

    /// VIDIOC_SUBSCRIBE_EVENT for `type`, asking for the current state at once; false when the
    /// driver has no such event (EINVAL).
    package func subscribe(event type: UInt32) throws(SystemCallError) -> Bool {
        var subscription = v4l2_event_subscription()
        subscription.type = type
        subscription.flags = cv4l2_EVENT_SUB_FL_SEND_INITIAL
        return try control(cv4l2_VIDIOC_SUBSCRIBE_EVENT, "VIDIOC_SUBSCRIBE_EVENT(0x\(String(type, radix: 16)))", &subscription, unlessFailingWith: [.invalidArgument])
    }

    /// The next pending event: its type and the first 32 bits of its payload; nil when none is
    /// pending (VIDIOC_DQEVENT fails with ENOENT).
    package func dequeueEvent() throws(SystemCallError) -> (type: UInt32, value: UInt32)? {
        var event = v4l2_event()
        guard try control(cv4l2_VIDIOC_DQEVENT, "VIDIOC_DQEVENT", &event, unlessFailingWith: [.noEntry]) else { return nil }
        let value = withUnsafeBytes(of: event.u) { $0.loadUnaligned(as: UInt32.self) }
        return (event.type, value)
    }

    /// Enabled controls by lower-case name (v4l2loopback's keep_format, sustain_framerate and
    /// timeout have driver-private ids).
    package func controlIDs() -> [String: UInt32] {
        var found: [String: UInt32] = [:]
        var query = v4l2_queryctrl()
        query.id = cv4l2_CTRL_FLAG_NEXT_CTRL
        while (try? control(cv4l2_VIDIOC_QUERYCTRL, "VIDIOC_QUERYCTRL", &query)) == true {
            let name = withUnsafeBytes(of: query.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if query.flags & cv4l2_CTRL_FLAG_DISABLED == 0 { found[name.lowercased()] = query.id }
            query.id |= cv4l2_CTRL_FLAG_NEXT_CTRL
        }
        return found
    }
}
