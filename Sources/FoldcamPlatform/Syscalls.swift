import CLinuxShims
import Glibc

/// The one place foldcam calls into the kernel: files, sockets, device nodes, poll/epoll,
/// ioctl, mmap and event sources. Other modules reach it through `package` visibility (or the
/// public owner types built on it) and never import Glibc themselves.
///
/// Every call retries on EINTR and turns -1 into a thrown `SystemCallError` naming the call.
/// Errors that can only come from a bug here (EBADF: a descriptor we do not own or already
/// closed; EFAULT: a bad buffer) stop the process with a precondition failure instead, as
/// swift-nio's `System.swift` does: carrying on would read or close someone else's descriptor.
/// `@inline(never)` keeps ARC traffic from clobbering errno between the call and the read.
package enum Syscall {
    @inline(never)
    package static func check<T: BinaryInteger>(_ name: @autoclosure () -> String, subject: String? = nil, retryOnInterrupt: Bool = true, _ body: () -> T) throws(SystemCallError) -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            let error = Errno.current
            if retryOnInterrupt && error == .interrupted { continue }
            preconditionAcceptable(error, name())
            throw SystemCallError(name(), error, subject: subject)
        }
    }

    /// EBADF and EFAULT are programming errors, never conditions to handle.
    package static func preconditionAcceptable(_ error: Errno, _ call: @autoclosure () -> String) {
        precondition(error != .badDescriptor && error != .badAddress, "\(call()) failed with \(error): a bug in foldcam (descriptor not owned, or a bad buffer)")
    }

    package static func close(_ fd: Int32) {
        // Linux closes the descriptor even when close() reports EINTR: never retry.
        if Glibc.close(fd) == -1 { preconditionAcceptable(.current, "close") }
    }

    /// O_CLOEXEC is always added: no descriptor of foldcam's leaks into a child process.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0, subject: String? = nil) throws(SystemCallError) -> Int32 {
        try check(subject == nil ? "open \(path)" : "open", subject: subject) { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, subject: String? = nil) throws(SystemCallError) -> Int {
        try check("read", subject: subject) { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// A read at `offset` that leaves the file position alone: a sysfs attribute kept open is
    /// read afresh at offset 0 on every call (sysfs regenerates the value for a read at 0).
    package static func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, offset: Int, subject: String? = nil) throws(SystemCallError) -> Int {
        try check("pread", subject: subject) { Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    package static func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer, subject: String? = nil) throws(SystemCallError) -> Int {
        try check("write", subject: subject) { Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `buffer`, continuing after short writes. A write that takes nothing (a
    /// full device) ends it with ENOSPC rather than spinning.
    package static func writeAll(_ fd: Int32, from buffer: UnsafeRawBufferPointer, subject: String? = nil) throws(SystemCallError) {
        var offset = 0
        while offset < buffer.count {
            let written = try write(fd, from: UnsafeRawBufferPointer(rebasing: buffer[offset...]), subject: subject)
            guard written > 0 else { throw SystemCallError("write", Errno(rawValue: ENOSPC), subject: subject) }
            offset += written
        }
    }

    /// One ioctl with a pointer argument (a plain C struct or integer).
    package static func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer, name: @autoclosure () -> String, subject: String? = nil) throws(SystemCallError) {
        _ = try check(name(), subject: subject) { Glibc.ioctl(fd, request, argument) }
    }

    /// How many descriptors have events; 0 on timeout, and on EINTR: retrying would restart the
    /// whole timeout, so an interrupted wait returns early and the caller, which loops to its own
    /// deadline anyway, waits again for what is left.
    package static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds: Int32) throws(SystemCallError) -> Int {
        let count = descriptors.count
        do {
            return Int(try descriptors.withUnsafeMutableBufferPointer { buffer throws(SystemCallError) in
                try check("poll", retryOnInterrupt: false) { Glibc.poll(buffer.baseAddress, nfds_t(count), timeoutMilliseconds) }
            })
        } catch {
            if error.errno == .interrupted { return 0 }
            throw error
        }
    }

    /// Maps `length` bytes of a device's memory at `offset`, shared and read-write.
    package static func mapShared(_ fd: Int32, length: Int, offset: Int, name: @autoclosure () -> String, subject: String? = nil) throws(SystemCallError) -> UnsafeMutableRawPointer {
        guard let address = Glibc.mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)), address != MAP_FAILED else {
            let error = Errno.current
            preconditionAcceptable(error, name())
            throw SystemCallError(name(), error, subject: subject)
        }
        return address
    }

    package static func unmap(_ address: UnsafeMutableRawPointer, length: Int) {
        // Fails only for an address that was never mapped: a bug.
        precondition(Glibc.munmap(address, length) == 0, "munmap of memory foldcam did not map")
    }

    /// A second descriptor for the same open file, close-on-exec (a C library's descriptor
    /// handed to our event loop, which must own what it closes).
    package static func duplicate(_ fd: Int32, name: @autoclosure () -> String, subject: String? = nil) throws(SystemCallError) -> Int32 {
        try check(name(), subject: subject) { fcntl(fd, F_DUPFD_CLOEXEC, 0) }
    }

    /// send() with MSG_NOSIGNAL: a vanished peer is EPIPE, never SIGPIPE.
    package static func send(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try check("send") { Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
    }

    /// sendmsg() of `parts` in order, as one write, with MSG_NOSIGNAL: bytes kept in separate
    /// buffers go out without being copied into one first.
    package static func send(_ fd: Int32, gathering parts: UnsafeMutableBufferPointer<iovec>) throws(SystemCallError) -> Int {
        var message = msghdr()
        message.msg_iov = parts.baseAddress
        message.msg_iovlen = parts.count
        return try check("sendmsg") { Glibc.sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
    }

    package static func socket(_ domain: Int32, _ type: Int32) throws(SystemCallError) -> Int32 {
        try check("socket") { Glibc.socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    package static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws(SystemCallError) {
        _ = try check("bind") { Glibc.bind(fd, address, length) }
    }

    package static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws(SystemCallError) {
        _ = try check("connect") { Glibc.connect(fd, address, length) }
    }

    package static func listen(_ fd: Int32, backlog: Int32) throws(SystemCallError) {
        _ = try check("listen") { Glibc.listen(fd, backlog) }
    }

    package static func accept(_ fd: Int32) throws(SystemCallError) -> Int32 {
        try check("accept4") { CLinuxShims.accept4(fd, nil, nil, Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)) }
    }

    package static func getsockopt(_ fd: Int32, _ level: Int32, _ option: Int32, _ value: UnsafeMutableRawPointer, _ length: inout socklen_t) throws(SystemCallError) {
        _ = try check("getsockopt") { Glibc.getsockopt(fd, level, option, value, &length) }
    }

    package static func setNonBlocking(_ fd: Int32) throws(SystemCallError) {
        let flags = try check("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        _ = try check("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    package static func unlink(_ path: String) throws(SystemCallError) {
        _ = try check("unlink \(path)") { Glibc.unlink(path) }
    }

    package static func epollCreate() throws(SystemCallError) -> Int32 {
        try check("epoll_create1") { epoll_create1(cfoldcam_EPOLL_CLOEXEC) }
    }

    package static func epollControl(_ epoll: Int32, _ operation: Int32, _ fd: Int32, events: UInt32) throws(SystemCallError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        _ = try check("epoll_ctl") { epoll_ctl(epoll, operation, fd, &event) }
    }

    package static func epollWait(_ epoll: Int32, _ events: UnsafeMutableBufferPointer<epoll_event>, timeoutMilliseconds: Int32) throws(SystemCallError) -> Int {
        Int(try check("epoll_wait") { epoll_wait(epoll, events.baseAddress, Int32(events.count), timeoutMilliseconds) })
    }

    package static func eventFD() throws(SystemCallError) -> Int32 {
        try check("eventfd") { eventfd(0, cfoldcam_EFD_NONBLOCK | cfoldcam_EFD_CLOEXEC) }
    }

    package static func timerFD() throws(SystemCallError) -> Int32 {
        try check("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, cfoldcam_TFD_NONBLOCK | cfoldcam_TFD_CLOEXEC) }
    }

    package static func timerSet(_ fd: Int32, initialNanoseconds: UInt64, intervalNanoseconds: UInt64) throws(SystemCallError) {
        func spec(_ ns: UInt64) -> timespec { timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000)) }
        var value = itimerspec(it_interval: spec(intervalNanoseconds), it_value: spec(initialNanoseconds))
        _ = try check("timerfd_settime") { timerfd_settime(fd, 0, &value, nil) }
    }

    package static func inotifyInit() throws(SystemCallError) -> Int32 {
        try check("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    package static func inotifyAddWatch(_ fd: Int32, path: String, mask: UInt32) throws(SystemCallError) -> Int32 {
        try check("inotify_add_watch", subject: path) { inotify_add_watch(fd, path, mask) }
    }

    /// The target of a symbolic link (a /proc/PID/fd entry); nil when it cannot be read (the
    /// process or descriptor went away, or it is not ours to see). Never follows the link, so it
    /// cannot block on the file behind it.
    package static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { Glibc.readlink(path, $0.baseAddress!, $0.count - 1) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with every symbolic link resolved (realpath(3)); nil when it cannot be resolved.
    package static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` can be listed (opendir succeeds); the errno when not.
    package static func canList(_ path: String) -> Errno? {
        guard let directory = opendir(path) else { return .current }
        closedir(directory)
        return nil
    }

    package static func processID() -> Int32 { getpid() }

    package static func signalFD(_ signals: [Int32]) throws(SystemCallError) -> Int32 {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        // Blocked signals are delivered through the descriptor instead of interrupting threads.
        _ = try check("pthread_sigmask") { pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 ? 0 : -1 }
        return try check("signalfd") { signalfd(-1, &mask, cfoldcam_SFD_NONBLOCK | cfoldcam_SFD_CLOEXEC) }
    }
}
