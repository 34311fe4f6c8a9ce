import CUdev
import FoldcamPlatform
import Glibc

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
            throw DeviceError(device: "udev", call: "udev_monitor_new_from_netlink", .failed(Errno(rawValue: errno)))
        }
        self.handle = handle
        self.context = context
        for subsystem in subsystems {
            let result = udev_monitor_filter_add_match_subsystem_devtype(handle, subsystem, nil)
            if result < 0 {
                udev_monitor_unref(handle)
                throw DeviceError(device: "udev", call: "udev_monitor_filter_add_match_subsystem_devtype(\(subsystem))", .failed(Errno(rawValue: -result)))
            }
        }
        let enabled = udev_monitor_enable_receiving(handle)
        if enabled < 0 {
            udev_monitor_unref(handle)
            throw DeviceError(device: "udev", call: "udev_monitor_enable_receiving", .failed(Errno(rawValue: -enabled)))
        }
        let duplicate = fcntl(udev_monitor_get_fd(handle), F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            let error = Errno(rawValue: errno)
            udev_monitor_unref(handle)
            throw DeviceError(device: "udev", call: "fcntl(F_DUPFD_CLOEXEC) on the monitor socket", .failed(error))
        }
        descriptor = FileDescriptor(owning: duplicate)
    }

    deinit { udev_monitor_unref(handle) }

    /// The next pending event, or nil when none is queued (the socket is non-blocking).
    /// - SeeAlso: man udev_monitor_receive_device(3)
    func receive() -> UdevDevice? {
        udev_monitor_receive_device(handle).map { UdevDevice(owning: $0, context: context) }
    }
}
