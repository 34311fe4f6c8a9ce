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

    static let libraryName = "libsystemd.so.0"
    private let openSystem: OpenSystem
    private let newMethodCall: NewMethodCall
    private let appendBasic: AppendBasic
    private let call: Call
    private let readBasic: ReadBasic
    private let messageUnref: Unref
    private let busFlushCloseUnref: Unref

    init() throws(DynamicLibraryError) {
        let library = try DynamicLibrary(Self.libraryName)
        openSystem = try library.function("sd_bus_open_system")
        newMethodCall = try library.function("sd_bus_message_new_method_call")
        appendBasic = try library.function("sd_bus_message_append_basic")
        call = try library.function("sd_bus_call")
        readBasic = try library.function("sd_bus_message_read_basic")
        messageUnref = try library.function("sd_bus_message_unref")
        busFlushCloseUnref = try library.function("sd_bus_flush_close_unref")
    }

    /// A failed sd-bus call: its name and the negative errno it returned.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let errno: Errno
        var description: String { "\(call) failed: \(errno)" }
    }

    /// org.freedesktop.DBus.NameHasOwner on the system bus: whether some connection owns `name`.
    /// A bus that cannot be reached fails in `sd_bus_open_system` or `sd_bus_call`.
    func nameHasOwner(_ name: String, timeoutMicroseconds: UInt64 = 1_000_000) throws(Failure) -> Bool {
        var bus: OpaquePointer?
        try check("sd_bus_open_system", openSystem(&bus))
        defer { _ = busFlushCloseUnref(bus) }
        var message: OpaquePointer?
        try check("sd_bus_message_new_method_call", newMethodCall(bus, &message, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner"))
        defer { _ = messageUnref(message) }
        try check("sd_bus_message_append_basic", name.withCString { appendBasic(message, CChar(UInt8(ascii: "s")), $0) })
        var reply: OpaquePointer?
        try check("sd_bus_call NameHasOwner", call(bus, message, timeoutMicroseconds, nil, &reply))
        defer { _ = messageUnref(reply) }
        var owned: Int32 = 0  // D-Bus booleans are read as a C int
        try check("sd_bus_message_read_basic", readBasic(reply, CChar(UInt8(ascii: "b")), &owned))
        return owned != 0
    }

    private func check(_ call: String, _ result: Int32) throws(Failure) {
        if result < 0 { throw Failure(call: call, errno: Errno(rawValue: -result)) }
    }
}
