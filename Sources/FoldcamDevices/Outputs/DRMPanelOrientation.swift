import FoldcamCore
import FoldcamPlatform

/// Reads the `panel orientation` property of a card's connectors through the KMS getters
/// (DRM_IOCTL_MODE_GETRESOURCES, GETCONNECTOR, GETPROPERTY): the kernel keeps it in no sysfs
/// file. Layouts are the kernel UAPI's (include/uapi/drm/drm_mode.h), the same on every 64-bit
/// and 32-bit ABI (fixed-size fields, pointers passed as u64). Blocking: device thread only.
enum DRMPanelOrientation {
    /// Connector name → clockwise mount rotation, for the connectors in `names` that have the
    /// property, and whether opening the node had made foldcamd DRM master (dropped at once).
    /// Never forces a probe of the connectors (GETCONNECTOR with room for one mode, as libdrm's
    /// drmModeGetConnectorCurrent does).
    static func read(node: String, names: Set<String>) throws(SystemCallError) -> (orientations: [String: Int], droppedMaster: Bool) {
        // Read-only and non-blocking: the getters need no more, and nothing here may wait.
        let file = try FileDescriptor.open(node, .readOnly, nonBlocking: true)
        let fd = file.rawValue
        let droppedMaster = dropMaster(fd, node)
        var result: [String: Int] = [:]
        for connector in try connectorIDs(fd, node) {
            guard let (name, properties) = try connectorProperties(fd, node, id: connector), names.contains(name) else { continue }
            for (property, value) in properties {
                if let text = try enumName(fd, node, property: property, named: "panel orientation", value: value),
                   let rotation = PanelOrientation.mountRotation(text) {
                    result[name] = rotation
                }
            }
        }
        return (result, droppedMaster)
    }

    /// The kernel makes the first opener of a primary node DRM master when the card has none
    /// (drm_master_open; a card before its compositor starts, or between two sessions): held
    /// even for these few getters, a compositor or logind starting meanwhile would fail to
    /// take the card (SET_MASTER answers EBUSY). Dropped right after the open; EINVAL says we
    /// were not master, and any other answer changes nothing the getters need.
    private static func dropMaster(_ fd: Int32, _ node: String) -> Bool {
        let unused = Buffer(8)
        do {
            try unused.ioctl(fd, dropMasterRequest, "DRM_IOCTL_DROP_MASTER", node)
            return true
        } catch {
            return false
        }
    }

    /// _IOWR('d', number, size).
    static func request(_ number: UInt, size: UInt) -> UInt { (3 << 30) | (size << 16) | (0x64 << 8) | number }

    /// _IO('d', 0x1f): no argument.
    static let dropMasterRequest: UInt = (0x64 << 8) | 0x1F

    static let getResources = request(0xA0, size: 64)
    static let getConnector = request(0xA7, size: 80)
    static let getProperty = request(0xAA, size: 64)

    private static func connectorIDs(_ fd: Int32, _ node: String) throws(SystemCallError) -> [UInt32] {
        var resources = Buffer(64)
        try resources.ioctl(fd, getResources, "DRM_IOCTL_MODE_GETRESOURCES", node)
        let count = Int(resources.u32(40))
        guard count > 0 else { return [] }
        let ids = Buffer(count * 4)
        resources = Buffer(64)
        resources.set(u64: ids.address, at: 16)
        resources.set(u32: UInt32(count), at: 40)
        try resources.ioctl(fd, getResources, "DRM_IOCTL_MODE_GETRESOURCES", node)
        let filled = min(count, Int(resources.u32(40)))
        // The kernel wrote through ids' address: keep it alive until read.
        return withExtendedLifetime(ids) { (0..<filled).map { ids.u32($0 * 4) } }
    }

    /// The connector's name (`eDP-1`) and its (property id, value) pairs; nil for a connector
    /// that went away meanwhile.
    private static func connectorProperties(_ fd: Int32, _ node: String, id: UInt32) throws(SystemCallError) -> (String, [(UInt32, UInt64)])? {
        let mode = Buffer(68)  // struct drm_mode_modeinfo: room for one, so nothing is probed
        func ask(props: Buffer?, values: Buffer?, count: Int) throws(SystemCallError) -> Buffer? {
            let connector = Buffer(80)
            connector.set(u64: mode.address, at: 8)
            connector.set(u32: 1, at: 32)
            if let props, let values {
                connector.set(u64: props.address, at: 16)
                connector.set(u64: values.address, at: 24)
                connector.set(u32: UInt32(count), at: 36)
            }
            connector.set(u32: id, at: 48)
            do {
                try connector.ioctl(fd, getConnector, "DRM_IOCTL_MODE_GETCONNECTOR", node)
            } catch where error.errno == .noEntry {
                return nil
            }
            return connector
        }
        guard let first = try ask(props: nil, values: nil, count: 0) else { return nil }
        let type = Int(first.u32(52))
        let name = "\(type < ConnectorName.types.count ? ConnectorName.types[type] : "Unknown")-\(first.u32(56))"
        let count = Int(first.u32(36))
        guard count > 0 else { return (name, []) }
        let props = Buffer(count * 4)
        let values = Buffer(count * 8)
        guard let second = try ask(props: props, values: values, count: count) else { return nil }
        let filled = min(count, Int(second.u32(36)))
        return withExtendedLifetime(mode) { (name, (0..<filled).map { (props.u32($0 * 4), values.u64($0 * 8)) }) }
    }

    /// The name of enum property `property`'s entry for `value`, if the property is `named`.
    private static func enumName(_ fd: Int32, _ node: String, property: UInt32, named wanted: String, value: UInt64) throws(SystemCallError) -> String? {
        var info = Buffer(64)
        info.set(u32: property, at: 16)
        try info.ioctl(fd, getProperty, "DRM_IOCTL_MODE_GETPROPERTY", node)
        guard info.string(24, length: 32) == wanted else { return nil }
        let count = Int(info.u32(60))
        guard count > 0 else { return nil }
        let entries = Buffer(count * 40)  // struct drm_mode_property_enum: u64 value, char name[32]
        let valueCount = info.u32(56)
        let values = Buffer(Int(valueCount) * 8)
        info = Buffer(64)
        info.set(u64: values.address, at: 0)
        info.set(u64: entries.address, at: 8)
        info.set(u32: property, at: 16)
        info.set(u32: valueCount, at: 56)
        info.set(u32: UInt32(count), at: 60)
        try info.ioctl(fd, getProperty, "DRM_IOCTL_MODE_GETPROPERTY", node)
        return withExtendedLifetime(values) {
            (0..<min(count, Int(info.u32(60)))).first { entries.u64($0 * 40) == value }.map { entries.string($0 * 40 + 8, length: 32) }
        }
    }

    /// Zeroed memory for one ioctl argument or the array a pointer in it names, freed with the
    /// object (a pointer handed to the kernel stays valid while the buffer is referenced).
    final class Buffer {
        let pointer: UnsafeMutableRawPointer
        let size: Int

        init(_ size: Int) {
            self.size = max(size, 8)
            pointer = UnsafeMutableRawPointer.allocate(byteCount: self.size, alignment: 8)
            pointer.initializeMemory(as: UInt8.self, repeating: 0, count: self.size)
        }

        deinit { pointer.deallocate() }

        var address: UInt64 { UInt64(UInt(bitPattern: pointer)) }
        func u32(_ offset: Int) -> UInt32 { pointer.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        func u64(_ offset: Int) -> UInt64 { pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        func set(u32 value: UInt32, at offset: Int) { pointer.storeBytes(of: value, toByteOffset: offset, as: UInt32.self) }
        func set(u64 value: UInt64, at offset: Int) { pointer.storeBytes(of: value, toByteOffset: offset, as: UInt64.self) }
        func string(_ offset: Int, length: Int) -> String {
            let bytes = UnsafeRawBufferPointer(start: pointer + offset, count: length).prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        func ioctl(_ fd: Int32, _ request: UInt, _ name: String, _ node: String) throws(SystemCallError) {
            try Syscall.ioctl(fd, request, pointer, name: name, subject: node)
        }
    }
}
