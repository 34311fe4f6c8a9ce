import CLinuxShims
import Glibc

/// The one place foldcam calls into the kernel for files, sockets and event sources.
/// Every call retries on EINTR and turns -1 into a thrown `SystemCallError` naming the call.
/// `@inline(never)` keeps ARC traffic from clobbering errno between the call and the read.
enum Syscall {
    @inline(never)
    static func check<T: BinaryInteger>(_ name: @autoclosure () -> String, retryOnInterrupt: Bool = true, _ body: () -> T) throws(SystemCallError) -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            let error = Errno.current
            if retryOnInterrupt && error == .interrupted { continue }
            throw SystemCallError(name(), error)
        }
    }

    static func close(_ fd: Int32) {
        // Linux closes the descriptor even when close() reports EINTR: never retry.
        _ = Glibc.close(fd)
    }

    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemCallError) -> Int32 {
        try check("open \(path)") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try check("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    static func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try check("write") { Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    /// send() with MSG_NOSIGNAL: a vanished peer is EPIPE, never SIGPIPE.
    static func send(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try check("send") { Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
    }

    static func socket(_ domain: Int32, _ type: Int32) throws(SystemCallError) -> Int32 {
        try check("socket") { Glibc.socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws(SystemCallError) {
        _ = try check("bind") { Glibc.bind(fd, address, length) }
    }

    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws(SystemCallError) {
        _ = try check("connect") { Glibc.connect(fd, address, length) }
    }

    static func listen(_ fd: Int32, backlog: Int32) throws(SystemCallError) {
        _ = try check("listen") { Glibc.listen(fd, backlog) }
    }

    static func accept(_ fd: Int32) throws(SystemCallError) -> Int32 {
        try check("accept4") { CLinuxShims.accept4(fd, nil, nil, Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)) }
    }

    static func getsockopt(_ fd: Int32, _ level: Int32, _ option: Int32, _ value: UnsafeMutableRawPointer, _ length: inout socklen_t) throws(SystemCallError) {
        _ = try check("getsockopt") { Glibc.getsockopt(fd, level, option, value, &length) }
    }

    static func setNonBlocking(_ fd: Int32) throws(SystemCallError) {
        let flags = try check("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        _ = try check("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    static func unlink(_ path: String) throws(SystemCallError) {
        _ = try check("unlink \(path)") { Glibc.unlink(path) }
    }

    static func epollCreate() throws(SystemCallError) -> Int32 {
        try check("epoll_create1") { epoll_create1(cfoldcam_EPOLL_CLOEXEC) }
    }

    static func epollControl(_ epoll: Int32, _ operation: Int32, _ fd: Int32, events: UInt32) throws(SystemCallError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        _ = try check("epoll_ctl") { epoll_ctl(epoll, operation, fd, &event) }
    }

    static func epollWait(_ epoll: Int32, _ events: UnsafeMutableBufferPointer<epoll_event>, timeoutMilliseconds: Int32) throws(SystemCallError) -> Int {
        Int(try check("epoll_wait") { epoll_wait(epoll, events.baseAddress, Int32(events.count), timeoutMilliseconds) })
    }

    static func eventFD() throws(SystemCallError) -> Int32 {
        try check("eventfd") { eventfd(0, cfoldcam_EFD_NONBLOCK | cfoldcam_EFD_CLOEXEC) }
    }

    static func timerFD() throws(SystemCallError) -> Int32 {
        try check("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, cfoldcam_TFD_NONBLOCK | cfoldcam_TFD_CLOEXEC) }
    }

    static func timerSet(_ fd: Int32, initialNanoseconds: UInt64, intervalNanoseconds: UInt64) throws(SystemCallError) {
        func spec(_ ns: UInt64) -> timespec { timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000)) }
        var value = itimerspec(it_interval: spec(intervalNanoseconds), it_value: spec(initialNanoseconds))
        _ = try check("timerfd_settime") { timerfd_settime(fd, 0, &value, nil) }
    }

    static func signalFD(_ signals: [Int32]) throws(SystemCallError) -> Int32 {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        // Blocked signals are delivered through the descriptor instead of interrupting threads.
        _ = try check("pthread_sigmask") { pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 ? 0 : -1 }
        return try check("signalfd") { signalfd(-1, &mask, cfoldcam_SFD_NONBLOCK | cfoldcam_SFD_CLOEXEC) }
    }
}
