@testable import FoldcamPipeWire
import Testing

/// Which camera nodes' RGB and BGR frames carry red and blue swapped (PipeWire < 1.1.81's
/// libcamera plugin).
@Suite struct LibcameraColourOrderTests {
    static let vimc = CameraNode(id: 45, properties: ["node.name": "libcamera_input.platform_vimc.0_Sensor_B", "device.api": "libcamera",
                                                      "api.libcamera.path": "platform/vimc.0 Sensor B"])
    static let vivid = CameraNode(id: 55, properties: ["node.name": "v4l2_input.platform-vivid.0.2", "device.api": "v4l2", "api.v4l2.path": "/dev/video1"])

    @Test func libcameraNodesOfOldPipeWireSwap() {
        #expect(LibcameraColourOrder.swapsRedAndBlue(Self.vimc, pipewireVersion: "0.3.65"))
        #expect(LibcameraColourOrder.swapsRedAndBlue(Self.vimc, pipewireVersion: "1.0.5"))
        #expect(LibcameraColourOrder.swapsRedAndBlue(Self.vimc, pipewireVersion: "1.1.80"))
        #expect(!LibcameraColourOrder.swapsRedAndBlue(Self.vimc, pipewireVersion: "1.1.81"))
        #expect(!LibcameraColourOrder.swapsRedAndBlue(Self.vimc, pipewireVersion: "1.4.2"))
        #expect(!LibcameraColourOrder.swapsRedAndBlue(Self.vimc, pipewireVersion: "1.10.0"))
    }

    @Test func otherNodesNever() {
        #expect(!LibcameraColourOrder.swapsRedAndBlue(Self.vivid, pipewireVersion: "0.3.65"))
        // Only the path marks it (a node whose device.api was not copied onto it).
        #expect(LibcameraColourOrder.swapsRedAndBlue(CameraNode(id: 1, properties: ["api.libcamera.path": "x"]), pipewireVersion: "0.3.65"))
    }

    @Test func anUnknownVersionIsTakenAsFixed() {
        #expect(!LibcameraColourOrder.swapsRedAndBlue(Self.vimc, pipewireVersion: ""))
        #expect(!LibcameraColourOrder.swapsRedAndBlue(Self.vimc, pipewireVersion: "1.x"))
        #expect(LibcameraColourOrder.parse("0.3.65") == [0, 3, 65])
        #expect(LibcameraColourOrder.parse("1.4.2-1~bpo12+1") == [1, 4, 2])
    }
}
