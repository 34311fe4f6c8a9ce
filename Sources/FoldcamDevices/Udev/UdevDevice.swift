import FoldcamCore
import CUdev

/// One udev device. Read what foldcam needs into a `UdevRecord` and let this go: the record is
/// the plain value the classifiers work on.
final class UdevDevice {
    let handle: OpaquePointer
    private let context: UdevContext

    init(owning handle: OpaquePointer, context: UdevContext) {
        self.handle = handle
        self.context = context
    }

    deinit { udev_device_unref(handle) }

    /// - SeeAlso: man udev_device_get_syspath(3)
    var syspath: String { string(udev_device_get_syspath(handle)) ?? "" }
    var sysname: String { string(udev_device_get_sysname(handle)) ?? "" }
    var subsystem: String? { string(udev_device_get_subsystem(handle)) }
    /// - SeeAlso: man udev_device_get_devnode(3)
    var devnode: String? { string(udev_device_get_devnode(handle)) }
    /// The device number (major and minor, as dev_t); 0 for a device without a node.
    /// - SeeAlso: man udev_device_get_devnum(3)
    var devnum: UInt64 { UInt64(udev_device_get_devnum(handle)) }
    /// "add", "remove", "change", ... for devices from a monitor; nil for enumerated ones.
    /// - SeeAlso: man udev_device_get_action(3)
    var action: String? { string(udev_device_get_action(handle)) }

    /// Every property (E: line): ID_PATH, ID_SERIAL, FOLDCAM_CAMERA, ACCEL_LOCATION, ...
    /// - SeeAlso: man udev_device_get_properties_list_entry(3)
    var properties: [String: String] {
        var result: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(handle)
        while let current = entry {
            if let name = string(udev_list_entry_get_name(current)) {
                result[name] = string(udev_list_entry_get_value(current)) ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        return result
    }

    /// A sysfs attribute as libudev read it (cached per device object: poll with
    /// `SysfsAttributes` instead).
    /// - SeeAlso: man udev_device_get_sysattr_value(3)
    func attribute(_ name: String) -> String? {
        string(udev_device_get_sysattr_value(handle, name))?.trimmingWhitespace
    }

    /// The plain value the classifiers read; `attributes` picks the sysfs attributes to copy.
    /// With a device model, the properties its matching entry adds are merged in, as if a udev
    /// rule had set them (`DeviceModel.match`).
    func record(attributes names: [String], model: DeviceModel? = nil) -> UdevRecord {
        var attributes: [String: String] = [:]
        for name in names { attributes[name] = attribute(name) }
        var properties = self.properties
        if let model, let match = model.match(subsystem: subsystem ?? "", properties: properties, attributes: attributes) {
            properties.merge(match.properties) { _, added in added }
        }
        return UdevRecord(syspath: syspath, sysname: sysname, subsystem: subsystem ?? "", devnode: devnode, properties: properties, attributes: attributes)
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
