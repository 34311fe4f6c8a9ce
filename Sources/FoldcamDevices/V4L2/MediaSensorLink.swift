import FoldcamV4L2

/// The camera sensor that feeds a capture node, found in the media graph: from the node's
/// interface to its entity, then upstream along data links (through a CSI-2 receiver, a
/// scaler) to an entity whose function is `MEDIA_ENT_F_CAM_SENSOR`, and that sensor's
/// sub-device node. On boards where the kernel puts a sensor's orientation and rotation on its
/// sub-device, this is where they are read without a model naming the sensor.
public struct MediaSensorLink: Sendable, Equatable {
    /// The sensor entity's name ("ov5693 2-0036", "Sensor A").
    public var name: String
    /// The sensor's sub-device, by device number (udev's MAJOR and MINOR).
    public var major: UInt32
    public var minor: UInt32
}

extension MediaTopology {
    /// The one sensor feeding the capture node `major:minor`, or nil. Enabled links are
    /// followed first (the path the pipeline is set up for); when they reach no sensor, every
    /// link is, and the answer counts only if exactly one sensor is reachable: a receiver that
    /// any of several sensors could feed names none of them (nothing was observed to choose).
    package func sensor(feedingCaptureNode major: UInt32, _ minor: UInt32) -> MediaSensorLink? {
        guard let interface = interfaces.first(where: { $0.type == Self.videoInterface && $0.major == major && $0.minor == minor }),
              let start = links.first(where: { $0.isInterfaceLink && $0.source == interface.id })?.sink
        else { return nil }
        for enabledOnly in [true, false] {
            let sensors = sensorsUpstream(of: start, enabledOnly: enabledOnly)
            if sensors.count == 1, let link = subdeviceLink(for: sensors[0]) { return link }
            if sensors.count > 1 { return nil }
        }
        return nil
    }

    /// Sensor entities reachable upstream from `entity`, breadth first, each once.
    private func sensorsUpstream(of entity: UInt32, enabledOnly: Bool) -> [UInt32] {
        let padEntity = Dictionary(pads.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<UInt32> = [entity]
        var queue = [entity]
        var sensors: [UInt32] = []
        while !queue.isEmpty {
            let current = queue.removeFirst()
            if current != entity, entities.first(where: { $0.id == current })?.function == Self.cameraSensorFunction {
                sensors.append(current)
                continue
            }
            for link in links where link.isDataLink && (!enabledOnly || link.isEnabled) {
                guard let sink = padEntity[link.sink], sink.entity == current, sink.flags & Self.sinkPad != 0,
                      let source = padEntity[link.source], seen.insert(source.entity).inserted
                else { continue }
                queue.append(source.entity)
            }
        }
        return sensors
    }

    private func subdeviceLink(for sensor: UInt32) -> MediaSensorLink? {
        guard let name = entities.first(where: { $0.id == sensor })?.name else { return nil }
        let interface = links.lazy.filter { $0.isInterfaceLink && $0.sink == sensor }
            .compactMap { link in self.interfaces.first { $0.id == link.source && $0.type == Self.subdeviceInterface } }.first
        return interface.map { MediaSensorLink(name: name, major: $0.major, minor: $0.minor) }
    }
}
