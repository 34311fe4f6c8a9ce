import CLibInput
import FoldcamPlatform

/// The libinput calls foldcam makes, looked up in libinput.so.10 at run time instead of linked.
/// Linking it mapped libinput and what it links (libwacom, gudev, glib, gobject, pcre2, ffi,
/// libevdev, mtdev: about 1.4 MB resident) into every foldcamd, simulate mode included, which
/// never reads a switch. Each field's type is its C declaration's, through a typedef in
/// CLibInput's shim.h (libinput-dev is still needed to build, for the header).
struct LibInput: Sendable {
    /// The soname <libinput.h> is built against; Debian ships it in the libinput10 package.
    static let soname = "libinput.so.10"

    /// Loaded on first use, once for the process (the probe and the device thread share it).
    static func load() throws(LibInputUnavailable) -> LibInput { try shared.get() }

    private static let shared = Result { () throws(LibInputUnavailable) -> LibInput in
        do throws(DynamicLibraryError) { return try LibInput(DynamicLibrary(soname)) } catch { throw LibInputUnavailable(cause: error) }
    }

    let udevCreateContext: clibinput_udev_create_context_fn
    let udevAssignSeat: clibinput_udev_assign_seat_fn
    let unref: clibinput_unref_fn
    let getFD: clibinput_get_fd_fn
    let dispatch: clibinput_dispatch_fn
    let getEvent: clibinput_get_event_fn
    let logSetHandler: clibinput_log_set_handler_fn
    let eventDestroy: clibinput_event_destroy_fn
    let eventGetType: clibinput_event_get_type_fn
    let eventGetDevice: clibinput_event_get_device_fn
    let eventGetSwitchEvent: clibinput_event_get_switch_event_fn
    let eventSwitchGetSwitch: clibinput_event_switch_get_switch_fn
    let eventSwitchGetSwitchState: clibinput_event_switch_get_switch_state_fn
    let deviceGetName: clibinput_device_get_name_fn
    let deviceHasCapability: clibinput_device_has_capability_fn
    let deviceSwitchHasSwitch: clibinput_device_switch_has_switch_fn

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        udevCreateContext = try library.function("libinput_udev_create_context")
        udevAssignSeat = try library.function("libinput_udev_assign_seat")
        unref = try library.function("libinput_unref")
        getFD = try library.function("libinput_get_fd")
        dispatch = try library.function("libinput_dispatch")
        getEvent = try library.function("libinput_get_event")
        logSetHandler = try library.function("libinput_log_set_handler")
        eventDestroy = try library.function("libinput_event_destroy")
        eventGetType = try library.function("libinput_event_get_type")
        eventGetDevice = try library.function("libinput_event_get_device")
        eventGetSwitchEvent = try library.function("libinput_event_get_switch_event")
        eventSwitchGetSwitch = try library.function("libinput_event_switch_get_switch")
        eventSwitchGetSwitchState = try library.function("libinput_event_switch_get_switch_state")
        deviceGetName = try library.function("libinput_device_get_name")
        deviceHasCapability = try library.function("libinput_device_has_capability")
        deviceSwitchHasSwitch = try library.function("libinput_device_switch_has_switch")
    }
}

/// libinput is not installed (or lacks a call): the daemon runs on without switches.
struct LibInputUnavailable: Error, Sendable, CustomStringConvertible {
    let cause: DynamicLibraryError

    var description: String { "\(cause) (install the libinput10 package to follow switches)" }
}
