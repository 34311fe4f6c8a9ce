import FoldcamCore

/// A hinge sensor's angle channel: turns raw values into believable, new angles in degrees.
/// Shared by the hinge drivers, whatever transport brings the raw values.
struct HingeChannel {
    let hinge: Int
    let syspath: String
    let scale: Double
    let offset: Double
    /// The model's sign and offset (the classifier refused a record whose values are not one).
    let correction: HingeCorrection
    private var filter: ReadingFilter
    private var lastPosted: Double?

    /// Reads the channel's scale and offset (the shared `in_angl_*` names of the Intel HID
    /// layout too).
    init(_ record: UdevRecord, hinge: Int, rig: Rig) throws(DeviceError) {
        let syspath = record.syspath
        self.syspath = syspath
        correction = (try? HingeCorrection.parse(record.properties).get()) ?? .none
        self.hinge = hinge
        scale = try SysfsAttributes.number(syspath, ["in_angl0_scale", "in_angl_scale"]) ?? 1
        offset = try SysfsAttributes.number(syspath, ["in_angl0_offset", "in_angl_offset"]) ?? 0
        filter = ReadingFilter(range: rig.hinges[hinge].minimum...rig.hinges[hinge].maximum)
    }

    /// Forget the reference reading (a first reading, or after resting): no rate check against it.
    mutating func reset() { filter.reset() }

    /// Filters one raw value; the event to post when it is new and believable.
    mutating func accept(raw: Double, now: Int, context: SensorContext) -> [InputEvent] {
        let degrees = correction.apply(IIOValue.hingeDegrees(raw: raw, scale: scale, offset: offset))
        if let rejection = filter.check(degrees, atMilliseconds: now) {
            context.warn("hinge \(syspath)", "hinge sensor \(syspath): reading \(rejection); dropped", now)
            return []
        }
        guard lastPosted.map({ abs($0 - degrees) >= 0.05 }) ?? true else { return [] }
        lastPosted = degrees
        return [.hingeAngle(hinge: hinge, degrees: degrees)]
    }

    func lost(_ context: SensorContext) -> [InputEvent] {
        context.log.notice("hinge sensor for \(context.rig.hinges[hinge].id) removed; falling back to the next input")
        return [.hingeSensorLost(hinge: hinge)]
    }
}
