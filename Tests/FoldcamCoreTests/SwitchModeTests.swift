import FoldcamCore
import Foundation
import Testing

/// `switches.*.mode` (docs/rig-format.md, "Switches"): an override decides alone while on; a
/// hint is one vote that never outvotes a measured angle.
@Suite struct SwitchModeTests {
    /// The convertible with its tablet-mode switch as a hint (the Spectre x360's fires on tilt).
    static func hinted() throws -> Harness {
        let text = try #require(RigPresets.json("convertible")).replacingOccurrences(
            of: #""tabletMode": {"hinge": "lid", "angle": 360}"#, with: #""tabletMode": {"hinge": "lid", "angle": 360, "mode": "hint"}"#)
        let rig = try RigDecoder.decode(json: text)
        #expect(rig.switches.tabletMode?.mode == .hint)
        return Harness(rig: rig)
    }

    @Test func overrideIsTheDefaultAndForcesTheAngle() throws {
        var convertible = try Harness("convertible")
        #expect(convertible.rig.switches.tabletMode?.mode == .override)
        convertible.hinge("lid", 45)
        convertible.apply(.tabletModeSwitch(on: true))
        #expect(convertible.posture == "tablet")
        #expect(convertible.state.hingeSources == [.tabletModeSwitch])
    }

    @Test func aHintDoesNotOutvoteTheHingeSensor() throws {
        var convertible = try Self.hinted()
        convertible.hinge("lid", 45)
        convertible.apply(.tabletModeSwitch(on: true))
        #expect(convertible.posture == "laptop", "the switch fired on a tilt; the hinge says 45°")
        #expect(convertible.state.hingeSources == [.sensor])
        #expect(convertible.hingeAngle == 45)
    }

    @Test func aHintPicksBetweenMeasurementsThatDisagree() throws {
        var convertible = try Self.hinted()
        convertible.hinge("lid", 45)
        SensorPlausibilityTests.accelerometers(&convertible, 350)
        #expect(convertible.state.hingeSources == [.sensor], "without the hint the hinge sensor comes first")
        convertible.apply(.tabletModeSwitch(on: true))
        #expect(convertible.state.hingeSources == [.accelerometers])
        #expect(convertible.posture == "tablet")
    }

    @Test func aHintStandsInWhenNothingIsMeasured() throws {
        var convertible = try Self.hinted()
        convertible.apply(.tabletModeSwitch(on: true))
        #expect(convertible.state.hingeSources == [.tabletModeSwitch])
        #expect(convertible.posture == "tablet")
        convertible.hinge("lid", 100)
        #expect(convertible.posture == "laptop")
    }

    @Test func anUnknownModeIsRefusedWithTheNearestName() throws {
        let text = try #require(RigPresets.json("convertible")).replacingOccurrences(
            of: #""tabletMode": {"hinge": "lid", "angle": 360}"#, with: #""tabletMode": {"hinge": "lid", "angle": 360, "mode": "hnt"}"#)
        do {
            _ = try RigDecoder.decode(json: text)
            Issue.record("decoded a rig with mode \"hnt\"")
        } catch {
            #expect("\(error)".contains(#"switches.tabletMode.mode: unknown switch mode "hnt" (expected one of: override, hint); did you mean "hint"?"#), "\(error)")
        }
    }
}
