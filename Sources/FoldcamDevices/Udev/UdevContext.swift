import CUdev
import FoldcamPlatform

/// The libudev library context; every other udev owner keeps one alive.
/// - SeeAlso: man udev_new(3)
final class UdevContext {
    // Not Sendable: libudev contexts are not thread-safe. Each lives and dies on one thread
    // (the device thread, or the probe command's main thread).
    let handle: OpaquePointer

    init() throws(DeviceError) {
        guard let handle = udev_new() else {
            throw .failed(SystemCallError("udev_new", .current, subject: "udev"))
        }
        self.handle = handle
    }

    deinit { udev_unref(handle) }

    /// The device at a sysfs path, or nil when it is gone.
    /// - SeeAlso: man udev_device_new_from_syspath(3)
    func device(syspath: String) -> UdevDevice? {
        udev_device_new_from_syspath(handle, syspath).map { UdevDevice(owning: $0, context: self) }
    }
}
