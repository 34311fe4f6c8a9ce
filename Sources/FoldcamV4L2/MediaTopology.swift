import CV4L2
import Glibc
import FoldcamPlatform

/// A media controller graph as `MEDIA_IOC_G_TOPOLOGY` gives it, as plain values: entities (a
/// sensor, a CSI-2 receiver, a capture DMA engine), their pads, the data links between pads, and
/// the interfaces (device nodes) linked to entities. Tests write these by hand.
/// - SeeAlso: https://docs.kernel.org/userspace-api/media/mediactl/media-ioc-g-topology.html
package struct MediaTopology: Sendable, Equatable {
    package struct Entity: Sendable, Equatable {
        package var id: UInt32
        package var name: String
        /// `MEDIA_ENT_F_*`: what the entity is (a camera sensor is `MEDIA_ENT_F_CAM_SENSOR`).
        package var function: UInt32
    }

    /// A device node: a capture node (`MEDIA_INTF_T_V4L_VIDEO`) or a sub-device
    /// (`MEDIA_INTF_T_V4L_SUBDEV`), by its device number.
    package struct Interface: Sendable, Equatable {
        package var id: UInt32
        package var type: UInt32
        package var major: UInt32
        package var minor: UInt32
    }

    package struct Pad: Sendable, Equatable {
        package var id: UInt32
        package var entity: UInt32
        /// `MEDIA_PAD_FL_SINK` or `MEDIA_PAD_FL_SOURCE`.
        package var flags: UInt32
    }

    /// A data link runs from a source pad to a sink pad; an interface link from an interface to
    /// the entity it controls.
    package struct Link: Sendable, Equatable {
        package var source: UInt32
        package var sink: UInt32
        package var flags: UInt32
        package var isInterfaceLink: Bool { flags & cv4l2_MEDIA_LNK_FL_LINK_TYPE == cv4l2_MEDIA_LNK_FL_INTERFACE_LINK }
        package var isDataLink: Bool { flags & cv4l2_MEDIA_LNK_FL_LINK_TYPE == cv4l2_MEDIA_LNK_FL_DATA_LINK }
        package var isEnabled: Bool { flags & cv4l2_MEDIA_LNK_FL_ENABLED != 0 }
    }

    package var entities: [Entity]
    package var interfaces: [Interface]
    package var pads: [Pad]
    package var links: [Link]


    package static let cameraSensorFunction = cv4l2_MEDIA_ENT_F_CAM_SENSOR
    package static let videoInterface = cv4l2_MEDIA_INTF_T_V4L_VIDEO
    package static let subdeviceInterface = cv4l2_MEDIA_INTF_T_V4L_SUBDEV
    package static let sinkPad = cv4l2_MEDIA_PAD_FL_SINK
    package static let sourcePad = cv4l2_MEDIA_PAD_FL_SOURCE
    package static let enabledDataLink = cv4l2_MEDIA_LNK_FL_DATA_LINK | cv4l2_MEDIA_LNK_FL_ENABLED
    package static let interfaceLink = cv4l2_MEDIA_LNK_FL_INTERFACE_LINK | cv4l2_MEDIA_LNK_FL_ENABLED
}

extension MediaTopology {
    /// Largest graph believed: an IPU6 with every sensor has a few dozen entities.
    static let maximumObjects: UInt32 = 4096

    /// Reads `/dev/mediaN`'s graph: asks for the counts, then for the objects. A graph that
    /// grew between the two calls (a sub-device bound meanwhile) is asked for again, twice at
    /// most. Blocking only as long as the driver's ioctl: runs on the device thread.
    package static func read(mediaNode node: String) throws(SystemCallError) -> MediaTopology {
        let fd = try Syscall.open(node, OpenFlags.readOnly | OpenFlags.nonBlocking, subject: node)
        defer { Syscall.close(fd) }
        let status = try Syscall.fileStatus(fd, subject: node)
        guard status.st_mode & S_IFMT == S_IFCHR else { throw SystemCallError("open", .noDevice, subject: node) }
        var attempt = 0
        while true {
            var counts = media_v2_topology()
            try Syscall.ioctl(fd, cv4l2_MEDIA_IOC_G_TOPOLOGY, &counts, name: "MEDIA_IOC_G_TOPOLOGY", subject: node)
            guard counts.num_entities <= maximumObjects, counts.num_interfaces <= maximumObjects, counts.num_pads <= maximumObjects,
                  counts.num_links <= maximumObjects
            else { throw SystemCallError("MEDIA_IOC_G_TOPOLOGY (more than \(maximumObjects) objects)", .invalidArgument, subject: node) }
            let entities = Self.buffer(of: media_v2_entity.self, counts.num_entities)
            let interfaces = Self.buffer(of: media_v2_interface.self, counts.num_interfaces)
            let pads = Self.buffer(of: media_v2_pad.self, counts.num_pads)
            let links = Self.buffer(of: media_v2_link.self, counts.num_links)
            defer {
                entities.deallocate()
                interfaces.deallocate()
                pads.deallocate()
                links.deallocate()
            }
            var asked = counts
            let version = counts.topology_version
            asked.ptr_entities = address(entities.baseAddress)
            asked.ptr_interfaces = address(interfaces.baseAddress)
            asked.ptr_pads = address(pads.baseAddress)
            asked.ptr_links = address(links.baseAddress)
            try Syscall.ioctl(fd, cv4l2_MEDIA_IOC_G_TOPOLOGY, &asked, name: "MEDIA_IOC_G_TOPOLOGY", subject: node)
            // The kernel fills at most the counts given and says how many there are now.
            if asked.topology_version != version || asked.num_entities > counts.num_entities || asked.num_interfaces > counts.num_interfaces
                || asked.num_pads > counts.num_pads || asked.num_links > counts.num_links {
                attempt += 1
                if attempt < 3 { continue }
                throw SystemCallError("MEDIA_IOC_G_TOPOLOGY (the graph kept changing)", .wouldBlock, subject: node)
            }
            return MediaTopology(
                entities: entities.prefix(Int(asked.num_entities)).map { entity in
                    Entity(id: entity.id, name: withUnsafeBytes(of: entity.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }, function: entity.function)
                },
                interfaces: interfaces.prefix(Int(asked.num_interfaces)).map { Interface(id: $0.id, type: $0.intf_type, major: $0.devnode.major, minor: $0.devnode.minor) },
                pads: pads.prefix(Int(asked.num_pads)).map { Pad(id: $0.id, entity: $0.entity_id, flags: $0.flags) },
                links: links.prefix(Int(asked.num_links)).map { Link(source: $0.source_id, sink: $0.sink_id, flags: $0.flags) })
        }
    }

    /// Zeroed room for `count` objects the kernel fills (a zero count asks for none).
    private static func buffer<Object>(of: Object.Type, _ count: UInt32) -> UnsafeMutableBufferPointer<Object> {
        guard count > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        let buffer = UnsafeMutableBufferPointer<Object>.allocate(capacity: Int(count))
        UnsafeMutableRawBufferPointer(buffer).initializeMemory(as: UInt8.self, repeating: 0)
        return buffer
    }

    private static func address<Object>(_ pointer: UnsafeMutablePointer<Object>?) -> UInt64 {
        pointer.map { UInt64(UInt(bitPattern: $0)) } ?? 0
    }
}
