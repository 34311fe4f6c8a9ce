import CUdev
import FoldcamPlatform

/// Hotplug events from udev (after its rules ran, so FOLDCAM_* properties are set). Enable it
/// before enumerating, so nothing that appears in between is lost.
/// - SeeAlso: man udev_monitor_new_from_netlink(3)
final class UdevMonitor {
    private let handle: OpaquePointer
    private let context: UdevContext
    /// A duplicate of the monitor's socket for the event loop; libudev keeps and closes its own.
    let descriptor: FileDescriptor

    init(_ context: UdevContext, subsystems: [String]) throws(DeviceError) {
        guard let handle = udev_monitor_new_from_netlink(context.handle, "udev") else {
            throw .failed(SystemCallError("udev_monitor_new_from_netlink", .current, subject: "udev"))
        }
        self.handle = handle
        self.context = context
        for subsystem in subsystems {
            let result = udev_monitor_filter_add_match_subsystem_devtype(handle, subsystem, nil)
            if result < 0 {
                udev_monitor_unref(handle)
                throw .failed(SystemCallError("udev_monitor_filter_add_match_subsystem_devtype(\(subsystem))", Errno(rawValue: -result), subject: "udev"))
            }
        }
        let enabled = udev_monitor_enable_receiving(handle)
        if enabled < 0 {
            udev_monitor_unref(handle)
            throw .failed(SystemCallError("udev_monitor_enable_receiving", Errno(rawValue: -enabled), subject: "udev"))
        }
        do {
            descriptor = FileDescriptor(owning: try Syscall.duplicate(udev_monitor_get_fd(handle), name: "fcntl(F_DUPFD_CLOEXEC) on the monitor socket", subject: "udev"))
        } catch {
            udev_monitor_unref(handle)
            throw .failed(error)
        }
    }

    deinit { udev_monitor_unref(handle) }

    /// The next pending event, or nil when none is queued (the socket is non-blocking).
    /// - SeeAlso: man udev_monitor_receive_device(3)
    func receive() -> UdevDevice? {
        udev_monitor_receive_device(handle).map { UdevDevice(owning: $0, context: context) }
    }
}
