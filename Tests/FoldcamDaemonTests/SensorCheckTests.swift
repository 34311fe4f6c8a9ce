import FoldcamCore
import FoldcamTestSupport
import Testing

/// A hinge sensor stuck at 0 on a running daemon (docs/model.md, "Sensor checks"): the daemon
/// names it in `devices` and `state`, warns once at `<4>` with what to do, and decides from the
/// accelerometers that remain.
@Suite("sensor checks over the socket")
struct SensorCheckTests {
    /// The two accelerometer readings that put the convertible's lid at `angle`.
    static func readings(_ rig: Rig, angle: Double) -> [(String, Vector3)] {
        let gravity = Vector3(0.2, -0.4, -0.89)
        let lid = RigPose(rig: rig, angles: [angle]).orientations[rig.panelIndex("lid")!].inverse.apply(gravity)
        return [("base", gravity), ("display", lid)]
    }

    static func vector(_ v: Vector3) -> JSONValue { .array([.double(v.x), .double(v.y), .double(v.z)]) }

    @Test("a hinge reading 0 while the accelerometers show it open is named, and decisions come from the accelerometers")
    func hingeStuckAtZeroIsNamedAndOutvoted() throws {
        let rig = try #require(try RigPresets.rig("convertible"))
        let daemon = try RunningDaemon(config: #"{"rig": "convertible"}"#)
        let client = try daemon.connect()
        _ = try client.result("subscribe", .params(("topics", .array([.string("devices")]))))
        for (sensor, reading) in Self.readings(rig, angle: 250) {
            _ = try client.result("simulate.accelerometer", .params(("accelerometer", .string(sensor)), ("reading", Self.vector(reading))))
        }
        for _ in 0..<5 { _ = try client.result("simulate.hinge", .params(("hinge", .string("lid")), ("angle", .int(0)))) }

        let state = try client.result("state")
        #expect(state["posture"] == .string("tent"), "decided from the accelerometers' 250°: \(state.compactText)")
        #expect(state["hingeSources"]?["lid"] == .string("accelerometers"))
        let suspect = state["suspectSensors"]
        #expect(suspect == .array([.object([
            ("sensor", .string("lid")), ("kind", .string("hinge")), ("fault", .string("zeroWhileOpen")),
            ("detail", .string("hinge lid: the sensor reads exactly 0° while the accelerometers give 250°")),
        ])]), "\(suspect?.compactText ?? "nothing")")

        let devices = try client.result("devices")
        #expect(devices["suspectSensors"] == suspect)
        var published = false
        for _ in 0..<10 {
            let event = try client.nextEvent()
            if event["event"] == .string("devices"), event["data"]?["suspectSensors"] == suspect { published = true; break }
        }
        #expect(published, "the devices topic carries the suspicion")

        #expect(daemon.waitForLog("<4>hinge lid: the sensor reads exactly 0°"), "\(daemon.stderr)")
        let warnings = daemon.stderr.split(separator: "\n").filter { $0.contains("reads exactly 0°") }
        #expect(warnings.count == 1, "once per episode, not per reading: \(warnings)")
        #expect(warnings.first?.contains("leave the hinge sensor out of the rig's matches") == true)
        _ = daemon.stop()
    }
}
