import FoldcamPlatform
import FoldcamV4L2

/// Finds the daemon's v4l2loopback output through udev: the video4linux node whose `name`
/// attribute (v4l2loopback's card label) is the configured label. Only those candidates are
/// opened, to confirm the driver and see which side they offer now; no other camera is touched.
public enum LoopbackLocator {
    /// The node, preferring one that offers its output side now: after a producer exits,
    /// v4l2loopback may offer only capture (or nothing) until someone claims the output side
    /// again, which the producer does. Nil when no loopback carries the label.
    public static func find(label: String) -> String? {
        guard let context = try? UdevContext(), let devices = try? UdevEnumerator.devices(context, subsystems: ["video4linux"]) else { return nil }
        let candidates = devices.map { $0.record(attributes: UdevRecord.cameraAttributes) }
            .filter { $0.attributes["name"] == label }
            .compactMap(\.devnode)
            .sorted()
        var matches: [(node: String, offersOutput: Bool)] = []
        for node in candidates {
            guard let device = try? V4L2Device(node: node, access: .kernel, nonBlocking: true), let identity = try? device.identity(),
                  identity.driver == V4L2Device.loopbackDriverName else { continue }
            matches.append((node, V4L2CapabilityFlags(rawValue: identity.capabilities).contains(.videoOutput)))
        }
        return (matches.first { $0.offersOutput } ?? matches.first)?.node
    }
}
