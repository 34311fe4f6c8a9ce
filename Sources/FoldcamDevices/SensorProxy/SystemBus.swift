import FoldcamPlatform

/// The few sd-bus calls foldcam needs, from libsystemd loaded with dlopen (a machine without
/// libsystemd, or a probe that never asks, maps nothing). No header is needed: the function
/// types below are written from sd-bus(3)'s declarations, and only non-variadic calls are used
/// (Swift cannot call C's variadic `sd_bus_call_method`). sd-bus honours
/// DBUS_SYSTEM_BUS_ADDRESS, which is how the tests point it at a private bus.
struct SystemBus {
    private typealias OpenSystem = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private typealias NewMethodCall = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    private typealias AppendBasic = @convention(c) (OpaquePointer?, CChar, UnsafeRawPointer?) -> Int32
    private typealias Call = @convention(c) (OpaquePointer?, OpaquePointer?, UInt64, UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private typealias ReadBasic = @convention(c) (OpaquePointer?, CChar, UnsafeMutableRawPointer?) -> Int32
    private typealias Unref = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias IsReady = @convention(c) (OpaquePointer?) -> Int32
    private typealias Process = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private typealias Wait = @convention(c) (OpaquePointer?, UInt64) -> Int32

    static let libraryName = "libsystemd.so.0"
    private let openSystem: OpenSystem
    private let newMethodCall: NewMethodCall
    private let appendBasic: AppendBasic
    private let call: Call
    private let readBasic: ReadBasic
    private let messageUnref: Unref
    private let busFlushCloseUnref: Unref
    private let isReady: IsReady
    private let process: Process
    private let wait: Wait

    init() throws(DynamicLibraryError) {
        let library = try DynamicLibrary(Self.libraryName)
        openSystem = try library.function("sd_bus_open_system")
        newMethodCall = try library.function("sd_bus_message_new_method_call")
        appendBasic = try library.function("sd_bus_message_append_basic")
        call = try library.function("sd_bus_call")
        readBasic = try library.function("sd_bus_message_read_basic")
        messageUnref = try library.function("sd_bus_message_unref")
        busFlushCloseUnref = try library.function("sd_bus_flush_close_unref")
        isReady = try library.function("sd_bus_is_ready")
        process = try library.function("sd_bus_process")
        wait = try library.function("sd_bus_wait")
    }

    /// A failed sd-bus call: its name and the negative errno it returned.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let errno: Errno
        var description: String { "\(call) failed: \(errno)" }
    }

    /// org.freedesktop.DBus.NameHasOwner on the system bus: whether some connection owns `name`.
    /// A bus that cannot be reached fails in `sd_bus_open_system` or `sd_bus_call`. The whole
    /// exchange, authentication and Hello included, ends within `timeoutMicroseconds`: this runs on
    /// the device thread, and `sd_bus_call` alone would wait up to sd-bus's 90 s authentication
    /// timeout for a bus that accepted the connection but does not answer.
    func nameHasOwner(_ name: String, timeoutMicroseconds: UInt64 = 1_000_000) throws(Failure) -> Bool {
        let deadline = MonotonicClock.nanoseconds + timeoutMicroseconds * 1000
        func remaining() throws(Failure) -> UInt64 {
            let now = MonotonicClock.nanoseconds
            guard now < deadline else { throw Failure(call: "waiting \(timeoutMicroseconds / 1000) ms for the system bus", errno: .timedOut) }
            return max((deadline - now) / 1000, 1)
        }
        var bus: OpaquePointer?
        try check("sd_bus_open_system", openSystem(&bus))
        defer { _ = busFlushCloseUnref(bus) }
        // Authentication and Hello, driven here against the deadline (sd_bus_open_system only
        // starts them).
        while true {
            let ready = isReady(bus)
            try check("sd_bus_is_ready", ready)
            if ready > 0 { break }
            let progressed = process(bus, nil)
            try check("sd_bus_process", progressed)
            if progressed == 0 { try check("sd_bus_wait", wait(bus, try remaining())) }
        }
        var message: OpaquePointer?
        try check("sd_bus_message_new_method_call", newMethodCall(bus, &message, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner"))
        defer { _ = messageUnref(message) }
        try check("sd_bus_message_append_basic", name.withCString { appendBasic(message, CChar(UInt8(ascii: "s")), $0) })
        var reply: OpaquePointer?
        try check("sd_bus_call NameHasOwner", call(bus, message, try remaining(), nil, &reply))
        defer { _ = messageUnref(reply) }
        var owned: Int32 = 0  // D-Bus booleans are read as a C int
        try check("sd_bus_message_read_basic", readBasic(reply, CChar(UInt8(ascii: "b")), &owned))
        return owned != 0
    }

    private func check(_ call: String, _ result: Int32) throws(Failure) {
        if result < 0 { throw Failure(call: call, errno: Errno(rawValue: -result)) }
    }
}
