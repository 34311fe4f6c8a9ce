import FoldcamCore
import Foundation
import Testing

/// Presence inputs (docs/model.md, "Presence inputs"): a USB device appearing or going, debounced
/// in the inputs' own times, covers displays or sets the posture while present.
@Suite struct PresenceInputTests {
    /// The dual-screen rig with the Zenbook Duo's keyboard (0b05:1b2c; 0b05:1bf2 on the 2025
    /// model) lying on the bottom display, and optionally a posture it sets.
    static func rig(_ extra: String = #""covers": ["bottom"]"#) throws -> Rig {
        var text = try #require(RigPresets.json("dual-screen"))
        let presence = #""presence": [{"id": "keyboard", "usb": ["0b05:1b2c", "0B05:1BF2"], \#(extra)}],"#
        text = text.replacingOccurrences(of: #""postures""#, with: presence + #" "postures""#)
        return try RigDecoder.decode(json: text)
    }

    static func apply(_ harness: inout Harness, _ event: InputEvent, at time: Int) -> FoldUpdate {
        harness.engine.apply(event, atMilliseconds: time)
    }

    @Test func decodesWithItsDefaults() throws {
        let rig = try Self.rig()
        #expect(rig.presence == [PresenceInput(id: "keyboard", usbIDs: ["0b05:1b2c", "0b05:1bf2"], debounceMilliseconds: 400, covers: [DisplayCover(display: rig.displayIndex("bottom")!)])])
    }

    @Test func theKeyboardCoversTheBottomDisplayAfterTheDebounce() throws {
        var rig = Harness(rig: try Self.rig())
        rig.hinge("lid", 180)
        let seen = Self.apply(&rig, .presence(input: 0, present: true), at: 1000)
        #expect(!rig.occluded("bottom"), "not yet: a change must hold 400 ms")
        #expect(seen.nextCheckAtMilliseconds == 1400, "the shell is told when to ask again")
        #expect(Self.apply(&rig, .advanceTime(milliseconds: 0), at: 1399).change.isEmpty)
        let settled = Self.apply(&rig, .advanceTime(milliseconds: 0), at: 1400)
        #expect(rig.occluded("bottom"))
        #expect(!rig.occluded("top"))
        #expect(settled.change.topics.contains("presence"))
        #expect(settled.nextCheckAtMilliseconds == nil)
        #expect(rig.state.present == [true])
    }

    @Test func aBounceShorterThanTheDebounceChangesNothing() throws {
        var rig = Harness(rig: try Self.rig())
        _ = Self.apply(&rig, .presence(input: 0, present: true), at: 0)
        _ = Self.apply(&rig, .presence(input: 0, present: false), at: 150)
        let later = Self.apply(&rig, .advanceTime(milliseconds: 0), at: 5000)
        #expect(later.nextCheckAtMilliseconds == nil)
        #expect(!rig.occluded("bottom"))
        // A repeated "present" does not restart the debounce.
        _ = Self.apply(&rig, .presence(input: 0, present: true), at: 6000)
        _ = Self.apply(&rig, .presence(input: 0, present: true), at: 6300)
        _ = Self.apply(&rig, .advanceTime(milliseconds: 0), at: 6400)
        #expect(rig.occluded("bottom"))
    }

    @Test func goingUncoversAfterTheDebounce() throws {
        var rig = Harness(rig: try Self.rig())
        _ = Self.apply(&rig, .presence(input: 0, present: true), at: 0)
        _ = Self.apply(&rig, .advanceTime(milliseconds: 0), at: 400)
        _ = Self.apply(&rig, .presence(input: 0, present: false), at: 1000)
        #expect(rig.occluded("bottom"))
        _ = Self.apply(&rig, .advanceTime(milliseconds: 0), at: 1400)
        #expect(!rig.occluded("bottom"))
    }

    @Test func aPresenceInputCanSetThePosture() throws {
        var rig = Harness(rig: try Self.rig(#""posture": "laptop""#))
        rig.hinge("lid", 180)
        #expect(rig.posture == "flat")
        _ = Self.apply(&rig, .presence(input: 0, present: true), at: 0)
        _ = Self.apply(&rig, .advanceTime(milliseconds: 0), at: 400)
        #expect(rig.posture == "laptop")
        #expect(rig.viewed == "top")
    }

    @Test func scenarioStepsCountInWaits() throws {
        let rig = try Self.rig()
        let script = #"{"steps": [{"presence": {"keyboard": "present"}}, {"wait": 399}, {"wait": 1}, {"presence": {"keyboard": "absent"}}, {"wait": 400}]}"#
        let states = ScenarioRunner.run(try Scenario.decode(json: script, rig: rig), rig: rig)
        #expect(states.map { $0["presence"]?["keyboard"] } == [.bool(false), .bool(false), .bool(true), .bool(true), .bool(false)])
        #expect(states.map { $0["displays"]?["bottom"]?["occluded"] } == [.bool(false), .bool(false), .bool(true), .bool(true), .bool(false)])
    }

    @Test(arguments: [
        (#""presence": {"keybaord": "present"}"#, #"unknown presence input "keybaord""#),
        (#""presence": {"keyboard": "docked"}"#, #""docked" is not a presence state (expected "present" or "absent")"#),
    ])
    func badStepsAreNamed(step: String, message: String) throws {
        let rig = try Self.rig()
        do {
            _ = try Scenario.decode(json: #"{"steps": [{\#(step)}]}"#, rig: rig)
            Issue.record("decoded \(step)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test(arguments: [
        (#""usb": ["0b05-1b2c"], "covers": ["bottom"]"#, #"is not a USB id"#),
        (#""usb": ["0b05:1b2c"]"#, #"does nothing"#),
        (#""usb": ["0b05:1b2c"], "covers": ["bottm"]"#, #"bottom"#),
    ])
    func badPresenceInputsAreRefused(body: String, message: String) throws {
        var text = try #require(RigPresets.json("dual-screen"))
        text = text.replacingOccurrences(of: #""postures""#, with: #""presence": [{"id": "keyboard", \#(body)}], "postures""#)
        do {
            _ = try RigDecoder.decode(json: text)
            Issue.record("decoded \(body)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
