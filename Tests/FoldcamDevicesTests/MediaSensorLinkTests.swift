import FoldcamCore
@testable import FoldcamDevices
import FoldcamIO
@testable import FoldcamV4L2
import Testing

/// The sensor feeding a capture node, found in its media graph (issue 26 item 6): the graphs are
/// written as MEDIA_IOC_G_TOPOLOGY gives them (kernel constants: sensor 0x20001, I/O 0x10001,
/// bridge 0x5002; video interface 0x200, sub-device 0x203).
@Suite struct MediaSensorLinkTests {
    typealias T = MediaTopology
    static let sensor: UInt32 = 0x2_0001, io: UInt32 = 0x1_0001, bridge: UInt32 = 0x5002, scaler: UInt32 = 0x4002

    /// A graph builder: entities with one sink pad (id + 100) and one source pad (id + 200).
    struct Graph {
        var entities: [T.Entity] = []
        var interfaces: [T.Interface] = []
        var links: [T.Link] = []
        mutating func entity(_ id: UInt32, _ name: String, _ function: UInt32) { entities.append(T.Entity(id: id, name: name, function: function)) }
        /// A data link from `source`'s source pad to `sink`'s sink pad.
        mutating func data(_ source: UInt32, _ sink: UInt32, enabled: Bool = true) {
            links.append(T.Link(source: source + 200, sink: sink + 100, flags: enabled ? T.enabledDataLink : 0))
        }
        mutating func node(_ id: UInt32, _ type: UInt32, _ major: UInt32, _ minor: UInt32, controls entity: UInt32) {
            interfaces.append(T.Interface(id: id, type: type, major: major, minor: minor))
            links.append(T.Link(source: id, sink: entity, flags: T.interfaceLink))
        }
        var topology: T {
            T(entities: entities, interfaces: interfaces,
              pads: entities.flatMap { [T.Pad(id: $0.id + 100, entity: $0.id, flags: T.sinkPad), T.Pad(id: $0.id + 200, entity: $0.id, flags: T.sourcePad)] },
              links: links)
        }
    }

    /// vimc's graph as the 6.1 kernel builds it (media-ctl -p in the e2e guest, check 94), with
    /// the scaler's inputs as `scalerInput` enables them: the default is Debayer A; libcamera's
    /// vimc pipeline enables Debayer B for its one camera, "Sensor B". "RGB/YUV Input" is a
    /// sensor too by its function, and the lenses have no pads.
    static func vimc(scalerInput: UInt32? = 3) -> T {
        var graph = Graph()
        graph.entity(1, "Sensor A", Self.sensor)
        graph.entity(2, "Sensor B", Self.sensor)
        graph.entity(3, "Debayer A", 0x4002)
        graph.entity(4, "Debayer B", 0x4002)
        graph.entity(5, "Raw Capture 0", Self.io)
        graph.entity(6, "Raw Capture 1", Self.io)
        graph.entity(7, "RGB/YUV Input", Self.sensor)
        graph.entity(8, "Scaler", Self.scaler)
        graph.entity(9, "RGB/YUV Capture", Self.io)
        graph.entity(10, "Lens A", 0x2_0003)
        graph.data(1, 3)
        graph.data(1, 5)
        graph.data(2, 4)
        graph.data(2, 6)
        for input: UInt32 in [3, 4, 7] { graph.data(input, 8, enabled: input == scalerInput) }
        graph.data(8, 9)
        graph.node(50, T.videoInterface, 81, 6, controls: 5)
        graph.node(51, T.videoInterface, 81, 7, controls: 6)
        graph.node(52, T.videoInterface, 81, 8, controls: 9)
        graph.node(53, T.subdeviceInterface, 81, 9, controls: 1)
        graph.node(54, T.subdeviceInterface, 81, 10, controls: 2)
        graph.node(55, T.subdeviceInterface, 81, 13, controls: 7)
        graph.node(56, T.subdeviceInterface, 81, 15, controls: 10)
        return graph.topology
    }
    static let sensorA = MediaSensorLink(name: "Sensor A", major: 81, minor: 9)
    static let sensorB = MediaSensorLink(name: "Sensor B", major: 81, minor: 10)

    @Test func followsEnabledLinksThroughProcessingEntities() {
        #expect(Self.vimc().sensor(feedingCaptureNode: 81, 6) == Self.sensorA)
        #expect(Self.vimc().sensor(feedingCaptureNode: 81, 7) == Self.sensorB)
        // The scaler has two more inputs, not enabled: the enabled path decides.
        #expect(Self.vimc().sensor(feedingCaptureNode: 81, 8) == Self.sensorA)
    }

    /// Once libcamera has configured its camera, the scaler takes Debayer B: the capture node's
    /// sensor is Sensor B. With no input of the scaler enabled, three sensors could feed it (Sensor A,
    /// Sensor B, and RGB/YUV Input by its function): the graph names none.
    @Test func vimcAsLibcameraConfiguresIt() {
        #expect(Self.vimc(scalerInput: 4).sensor(feedingCaptureNode: 81, 8) == Self.sensorB)
        #expect(Self.vimc(scalerInput: 4).sensor(feedingCaptureNode: 81, 6) == Self.sensorA)
        #expect(Self.vimc(scalerInput: nil).sensor(feedingCaptureNode: 81, 8) == nil)
    }

    @Test func aNodeNotInTheGraphHasNoSensor() {
        #expect(Self.vimc().sensor(feedingCaptureNode: 81, 99) == nil)
        #expect(Self.vimc().sensor(feedingCaptureNode: 81, 9) == nil)  // a sub-device, not a capture node
    }

    /// An IPU-style graph before libcamera configures it: no link enabled. One sensor behind a
    /// receiver is still that receiver's sensor; a receiver two sensors could feed names none.
    @Test func unconfiguredLinksCountOnlyWhenOneSensorIsReachable() {
        var graph = Graph()
        graph.entity(1, "ov2740 14-0036", Self.sensor)
        graph.entity(2, "Intel IPU6 CSI2 0", Self.bridge)
        graph.entity(3, "Intel IPU6 ISYS Capture 0", Self.io)
        graph.data(1, 2, enabled: false)
        graph.data(2, 3, enabled: false)
        graph.node(50, T.videoInterface, 81, 0, controls: 3)
        graph.node(51, T.subdeviceInterface, 81, 7, controls: 1)
        #expect(graph.topology.sensor(feedingCaptureNode: 81, 0) == MediaSensorLink(name: "ov2740 14-0036", major: 81, minor: 7))
        graph.entity(4, "ov01a10 14-0037", Self.sensor)
        graph.data(4, 2, enabled: false)
        graph.node(52, T.subdeviceInterface, 81, 8, controls: 4)
        #expect(graph.topology.sensor(feedingCaptureNode: 81, 0) == nil)
        // Once a pipeline enables one path, that path names its sensor.
        graph.links = graph.links.map { link in
            link.source == 4 + 200 || link.sink == 3 + 100 ? T.Link(source: link.source, sink: link.sink, flags: T.enabledDataLink) : link
        }
        #expect(graph.topology.sensor(feedingCaptureNode: 81, 0) == MediaSensorLink(name: "ov01a10 14-0037", major: 81, minor: 8))
    }

    @Test func aSensorWithoutSubdeviceNodeAndLoopsEndTheSearch() {
        var graph = Graph()
        graph.entity(1, "imx219 1-0010", Self.sensor)
        graph.entity(2, "loop a", Self.scaler)
        graph.entity(3, "loop b", Self.scaler)
        graph.entity(4, "capture", Self.io)
        graph.data(2, 3)
        graph.data(3, 2)
        graph.data(3, 4)
        graph.node(50, T.videoInterface, 81, 0, controls: 4)
        #expect(graph.topology.sensor(feedingCaptureNode: 81, 0) == nil)
        graph.data(1, 2)
        #expect(graph.topology.sensor(feedingCaptureNode: 81, 0) == nil)  // no sub-device node to read
        graph.node(51, T.subdeviceInterface, 81, 4, controls: 1)
        #expect(graph.topology.sensor(feedingCaptureNode: 81, 0) == MediaSensorLink(name: "imx219 1-0010", major: 81, minor: 4))
    }

    @Test func mediaNodeNames() {
        #expect(V4L2Prober.isMediaNodeName("media0") && V4L2Prober.isMediaNodeName("media12"))
        #expect(!V4L2Prober.isMediaNodeName("media") && !V4L2Prober.isMediaNodeName("media0x") && !V4L2Prober.isMediaNodeName("video0"))
    }
}

/// A capture node without mounting controls takes them from the sensor its media graph links
/// it to, with no model naming the sensor, whichever of the two appears first.
@Suite struct MediaGraphMountingTests {
    let log = Log(threshold: .error)
    static let subdevice = UdevRecord(syspath: "/sys/devices/platform/i2c-1/1-0010/video4linux/v4l-subdev0", sysname: "v4l-subdev0", subsystem: "video4linux",
                                      devnode: "/dev/v4l-subdev0", properties: ["MAJOR": "81", "MINOR": "4"], attributes: ["name": "imx219 1-0010"])
    static let otherSubdevice = UdevRecord(syspath: "/sys/devices/platform/i2c-1/1-0020/video4linux/v4l-subdev1", sysname: "v4l-subdev1", subsystem: "video4linux",
                                           devnode: "/dev/v4l-subdev1", properties: ["MAJOR": "81", "MINOR": "5"], attributes: ["name": "imx219 1-0020"])
    static let capture = UdevRecord(syspath: "/sys/devices/platform/csi/video4linux/video0", sysname: "video0", subsystem: "video4linux", devnode: "/dev/video0",
                                    properties: ["ID_PATH": "platform-csi", "FOLDCAM_CAMERA": "user"], attributes: ["name": "unicam-image"])

    func inventory(link: MediaSensorLink?) throws -> CameraInventory {
        CameraInventory(rig: try Fixtures.rig("convertible"), loopback: Fixtures.loopback) { node throws(DeviceError) in
            switch node {
            case "/dev/v4l-subdev0":
                return V4L2Answers(capability: V4L2Capability(driver: "", card: "", busInfo: "", nodeCapabilities: []), controls: V4L2Controls(orientation: 1, sensorRotationCounterClockwise: 180))
            case "/dev/v4l-subdev1":
                return V4L2Answers(capability: V4L2Capability(driver: "", card: "", busInfo: "", nodeCapabilities: []), controls: V4L2Controls(orientation: 0, sensorRotationCounterClockwise: 90))
            default:
                var answers = V4L2Answers(capability: Fixtures.capability(card: "unicam", driver: "unicam"), formats: Fixtures.yuyvFormats)
                answers.linkedSensor = link
                return answers
            }
        }
    }

    func check(_ inventory: CameraInventory) throws {
        let camera = try #require(inventory.descriptors.first { $0.rigCamera == "user" })
        #expect(camera.position == "back")
        #expect(camera.sensorRotation == 180)
        #expect(camera.provenance?.positionSource == "V4L2_CID_CAMERA_ORIENTATION on /dev/v4l-subdev0 (imx219 1-0010, its sensor in the media graph)")
        #expect(camera.provenance?.sensor == "/dev/v4l-subdev0 (imx219 1-0010)")
    }

    @Test func subdeviceFirst() throws {
        var inventory = try inventory(link: MediaSensorLink(name: "imx219 1-0010", major: 81, minor: 4))
        _ = inventory.update(Self.otherSubdevice, log: log)
        _ = inventory.update(Self.subdevice, log: log)
        _ = inventory.update(Self.capture, log: log)
        try check(inventory)
    }

    @Test func subdeviceLater() throws {
        var inventory = try inventory(link: MediaSensorLink(name: "imx219 1-0010", major: 81, minor: 4))
        _ = inventory.update(Self.capture, log: log)
        #expect(inventory.descriptors.first?.provenance?.rotationSource == "rig camera user")
        _ = inventory.update(Self.otherSubdevice, log: log)  // not its sensor: nothing changes
        #expect(inventory.descriptors.first?.provenance?.rotationSource == "rig camera user")
        _ = inventory.update(Self.subdevice, log: log)
        try check(inventory)
    }

    @Test func noLinkNoMounting() throws {
        var inventory = try inventory(link: nil)
        _ = inventory.update(Self.subdevice, log: log)
        _ = inventory.update(Self.capture, log: log)
        #expect(inventory.descriptors.first?.provenance?.rotationSource == "rig camera user")
        #expect(inventory.descriptors.first?.provenance?.sensor == nil)
    }
}
