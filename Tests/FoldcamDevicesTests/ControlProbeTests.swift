@testable import FoldcamDevices
import FoldcamV4L2
import Testing

/// A node with no controls at all: the V4L2 core answers VIDIOC_QUERYCTRL with ENOTTY when the
/// driver registered no control handler (vimc's capture nodes and its scaler sub-device, seen in
/// the e2e guest). That is "no such control", not a failed probe. /dev/null answers every ioctl
/// with ENOTTY too, so it stands in for such a node here.
@Suite struct ControlProbeTests {
    @Test func aNodeWithoutControlsHasNone() throws {
        let device = try V4L2Device(node: "/dev/null", access: .kernel, nonBlocking: true)
        defer { device.close() }
        #expect(try device.has(.cameraOrientation) == false)
        #expect(try device.value(of: .cameraSensorRotation) == nil)
        #expect(try V4L2Prober.controls(device) == V4L2Controls())
    }
}
