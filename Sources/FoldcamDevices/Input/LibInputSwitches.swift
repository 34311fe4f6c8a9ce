import CLibInput
import FoldcamPlatform

/// Lid and tablet-mode switches through libinput's udev backend, on one seat.
///
/// Trust is libinput's: it reports only switches it believes. A lid switch its quirks mark
/// unreliable (`AttrLidSwitchReliability`), or a tablet-mode switch marked
/// `ModelTabletModeSwitchUnreliable`, never produces events here, so foldcam follows the same
/// judgement as the desktop and does not read evdev itself. A switch that is on when its device
/// appears is reported right after the device (libinput syncs initial state).
/// libinput itself is loaded by the first instance (`LibInput`), not linked.
/// - SeeAlso: https://wayland.freedesktop.org/libinput/doc/latest/switches.html
final class LibInputSwitches {
    private let libinput: LibInput
    private let handle: OpaquePointer
    private let context: UdevContext
    /// A duplicate of libinput's epoll descriptor for the event loop.
    let descriptor: FileDescriptor

    /// libinput opens devices through these callbacks. They must not capture anything, and the
    /// struct must outlive every context, so it lives in static storage.
    nonisolated(unsafe) private static let interface: UnsafeMutablePointer<libinput_interface> = {
        let pointer = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        pointer.initialize(to: libinput_interface(
            open_restricted: { path, flags, _ in
                guard let path else { return -Errno.invalidArgument.rawValue }
                let node = String(cString: path)
                do throws(SystemCallError) {
                    return try Syscall.open(node, flags, subject: node)
                } catch {
                    // Switches only need reading; a service allowed just that (DeviceAllow=... r)
                    // still gets its lid and tablet-mode events.
                    guard error.errno == .permissionDenied || error.errno == .notPermitted,
                          flags & OpenFlags.accessMode == OpenFlags.readWrite else { return -error.errno.rawValue }
                    do throws(SystemCallError) {
                        return try Syscall.open(node, (flags & ~OpenFlags.accessMode) | OpenFlags.readOnly, subject: node)
                    } catch {
                        return -error.errno.rawValue
                    }
                }
            },
            close_restricted: { fd, _ in
                Syscall.close(fd)  // an evdev node: nothing is lost when close reports an error
            }))
        return pointer
    }()

    /// Throws `LibInputUnavailable` when libinput cannot be loaded, else a `DeviceError`.
    init(_ context: UdevContext, seat: String) throws {
        let libinput = try LibInput.load()
        guard let handle = libinput.udevCreateContext(Self.interface, nil, context.handle) else {
            throw DeviceError.failed(SystemCallError("libinput_udev_create_context", .current, subject: "libinput"))
        }
        self.libinput = libinput
        self.handle = handle
        self.context = context
        // Before the seat is assigned: adding the seat's devices is what logs most.
        LibInputLog.install(on: handle, libinput)
        guard libinput.udevAssignSeat(handle, seat) == 0 else {
            _ = libinput.unref(handle)
            throw DeviceError.failed(SystemCallError("libinput_udev_assign_seat", .noEntry, subject: "libinput seat \(seat)"))
        }
        do {
            descriptor = FileDescriptor(owning: try Syscall.duplicate(libinput.getFD(handle), name: "fcntl(F_DUPFD_CLOEXEC)", subject: "libinput"))
        } catch {
            _ = libinput.unref(handle)
            throw DeviceError.failed(error)
        }
    }

    deinit { _ = libinput.unref(handle) }

    enum Event {
        case switchDevice(name: String, lid: Bool, tabletMode: Bool)
        case toggled(SwitchTranslation.Switch, on: Bool)
    }

    /// Processes what libinput has pending and returns the events foldcam cares about.
    /// - SeeAlso: libinput_dispatch, libinput_get_event
    func drain() throws(DeviceError) -> [Event] {
        let result = libinput.dispatch(handle)
        if result < 0 { throw .failed(SystemCallError("libinput_dispatch", Errno(rawValue: -result), subject: "libinput")) }
        var events: [Event] = []
        while let event = libinput.getEvent(handle) {
            defer { libinput.eventDestroy(event) }
            switch libinput.eventGetType(event) {
            case LIBINPUT_EVENT_DEVICE_ADDED:
                guard let device = libinput.eventGetDevice(event), libinput.deviceHasCapability(device, LIBINPUT_DEVICE_CAP_SWITCH) != 0 else { continue }
                events.append(.switchDevice(
                    name: libinput.deviceGetName(device).map { String(cString: $0) } ?? "?",
                    lid: libinput.deviceSwitchHasSwitch(device, LIBINPUT_SWITCH_LID) == 1,
                    tabletMode: libinput.deviceSwitchHasSwitch(device, LIBINPUT_SWITCH_TABLET_MODE) == 1))
            case LIBINPUT_EVENT_SWITCH_TOGGLE:
                guard let toggle = libinput.eventGetSwitchEvent(event) else { continue }
                let on = libinput.eventSwitchGetSwitchState(toggle) == LIBINPUT_SWITCH_STATE_ON
                switch libinput.eventSwitchGetSwitch(toggle) {
                case LIBINPUT_SWITCH_LID: events.append(.toggled(.lid, on: on))
                case LIBINPUT_SWITCH_TABLET_MODE: events.append(.toggled(.tabletMode, on: on))
                default: continue
                }
            default:
                continue
            }
        }
        return events
    }
}
