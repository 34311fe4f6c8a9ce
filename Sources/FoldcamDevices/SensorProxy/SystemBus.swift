import FoldcamPlatform

/// The few sd-bus calls foldcam needs, from libsystemd loaded with dlopen (a machine without
/// libsystemd, or a probe that never asks, maps nothing). No header is needed: the function
/// types below are written from sd-bus(3)'s declarations, and only non-variadic calls are used
/// (Swift cannot call C's variadic `sd_bus_call_method`). sd-bus honours
/// DBUS_SYSTEM_BUS_ADDRESS, which is how the tests point it at a private bus.
struct SystemBus: @unchecked Sendable {  // function pointers of a library loaded for good
    typealias OpenSystem = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    typealias NewMethodCall = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    typealias AppendBasic = @convention(c) (OpaquePointer?, CChar, UnsafeRawPointer?) -> Int32
    typealias Call = @convention(c) (OpaquePointer?, OpaquePointer?, UInt64, UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    typealias ReadBasic = @convention(c) (OpaquePointer?, CChar, UnsafeMutableRawPointer?) -> Int32
    typealias Unref = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias IsReady = @convention(c) (OpaquePointer?) -> Int32
    typealias Process = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    typealias Wait = @convention(c) (OpaquePointer?, UInt64) -> Int32
    /// sd_bus_message_handler_t: (message, userdata, ret_error) -> int.
    typealias Handler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, OpaquePointer?) -> Int32
    typealias AddMatchAsync = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?, Handler?, Handler?, UnsafeMutableRawPointer?) -> Int32
    typealias GetFD = @convention(c) (OpaquePointer?) -> Int32
    typealias Flush = @convention(c) (OpaquePointer?) -> Int32
    typealias EnterContainer = @convention(c) (OpaquePointer?, CChar, UnsafePointer<CChar>?) -> Int32
    typealias ExitContainer = @convention(c) (OpaquePointer?) -> Int32
    typealias Skip = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32

    static let libraryName = "libsystemd.so.0"
    let openSystem: OpenSystem
    let newMethodCall: NewMethodCall
    let appendBasic: AppendBasic
    let call: Call
    let readBasic: ReadBasic
    let messageUnref: Unref
    let messageRef: Unref
    let busFlushCloseUnref: Unref
    let slotUnref: Unref
    let isReady: IsReady
    let process: Process
    let wait: Wait
    let addMatchAsync: AddMatchAsync
    let getFD: GetFD
    let flush: Flush
    let enterContainer: EnterContainer
    let exitContainer: ExitContainer
    let skip: Skip

    init() throws(DynamicLibraryError) {
        let library = try DynamicLibrary(Self.libraryName)
        openSystem = try library.function("sd_bus_open_system")
        newMethodCall = try library.function("sd_bus_message_new_method_call")
        appendBasic = try library.function("sd_bus_message_append_basic")
        call = try library.function("sd_bus_call")
        readBasic = try library.function("sd_bus_message_read_basic")
        messageUnref = try library.function("sd_bus_message_unref")
        messageRef = try library.function("sd_bus_message_ref")
        busFlushCloseUnref = try library.function("sd_bus_flush_close_unref")
        slotUnref = try library.function("sd_bus_slot_unref")
        isReady = try library.function("sd_bus_is_ready")
        process = try library.function("sd_bus_process")
        wait = try library.function("sd_bus_wait")
        addMatchAsync = try library.function("sd_bus_add_match_async")
        getFD = try library.function("sd_bus_get_fd")
        flush = try library.function("sd_bus_flush")
        enterContainer = try library.function("sd_bus_message_enter_container")
        exitContainer = try library.function("sd_bus_message_exit_container")
        skip = try library.function("sd_bus_message_skip")
    }

    /// A failed sd-bus call: its name and the negative errno it returned.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let errno: Errno
        var description: String { "\(call) failed: \(errno)" }
    }

    /// org.freedesktop.DBus.NameHasOwner on the system bus: whether some connection owns `name`.
    /// A bus that cannot be reached fails in `sd_bus_open_system` or `sd_bus_call`. The whole
    /// exchange ends within `timeoutMicroseconds` (see `SystemBusConnection.open`).
    func nameHasOwner(_ name: String, timeoutMicroseconds: UInt64 = 1_000_000) throws(Failure) -> Bool {
        let deadline = SystemBusConnection.Deadline(microseconds: timeoutMicroseconds)
        let connection = try SystemBusConnection.open(self, deadline: deadline)
        let reply = try connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", arguments: [name], deadline: deadline)
        var owned: Int32 = 0  // D-Bus booleans are read as a C int
        try check("sd_bus_message_read_basic", readBasic(reply.pointer, CChar(UInt8(ascii: "b")), &owned))
        return owned != 0
    }

    func check(_ call: String, _ result: Int32) throws(Failure) {
        if result < 0 { throw Failure(call: call, errno: Errno(rawValue: -result)) }
    }
}
