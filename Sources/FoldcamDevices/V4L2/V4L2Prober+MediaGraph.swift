import FoldcamPlatform
import FoldcamV4L2

extension V4L2Prober {
    /// The sensor feeding `device` per the media graph of the media device beside it in sysfs
    /// (`/sys/dev/char/M:m/device/mediaN`), or nil: no media device (a UVC camera without one,
    /// v4l2loopback), a graph that does not say, or a media node that would not answer. The
    /// mounting controls are optional facts, so none of these fails the probe.
    static func linkedSensor(_ device: V4L2Device) -> MediaSensorLink? {
        guard let (major, minor) = try? device.deviceNumber() else { return nil }
        let media = Directory.names(in: "/sys/dev/char/\(major):\(minor)/device").filter(isMediaNodeName).sorted()
        for name in media {
            guard let topology = try? MediaTopology.read(mediaNode: "/dev/\(name)") else { continue }
            if let link = topology.sensor(feedingCaptureNode: major, minor) { return link }
        }
        return nil
    }

    /// "media0", "media12": a media controller's node name.
    static func isMediaNodeName(_ name: String) -> Bool {
        name.hasPrefix("media") && name.count > 5 && name.dropFirst(5).allSatisfy(\.isASCII) && name.dropFirst(5).allSatisfy(\.isNumber)
    }
}
