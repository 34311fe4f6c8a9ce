import CUdev
import FoldcamPlatform

/// Lists the devices present now in some subsystems.
/// - SeeAlso: man udev_enumerate_scan_devices(3)
enum UdevEnumerator {
    static func devices(_ context: UdevContext, subsystems: [String]) throws(DeviceError) -> [UdevDevice] {
        guard let enumerate = udev_enumerate_new(context.handle) else {
            throw .failed(SystemCallError("udev_enumerate_new", .noEntry, subject: "udev"))
        }
        defer { udev_enumerate_unref(enumerate) }
        for subsystem in subsystems {
            let result = udev_enumerate_add_match_subsystem(enumerate, subsystem)
            // libudev returns -errno, not -1 with errno set.
            if result < 0 { throw .failed(SystemCallError("udev_enumerate_add_match_subsystem(\(subsystem))", Errno(rawValue: -result), subject: "udev")) }
        }
        let scanned = udev_enumerate_scan_devices(enumerate)
        if scanned < 0 { throw .failed(SystemCallError("udev_enumerate_scan_devices", Errno(rawValue: -scanned), subject: "udev")) }
        var devices: [UdevDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            // A device can vanish between the scan and here: skip it.
            if let name = udev_list_entry_get_name(current), let device = context.device(syspath: String(cString: name)) {
                devices.append(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return devices
    }
}
