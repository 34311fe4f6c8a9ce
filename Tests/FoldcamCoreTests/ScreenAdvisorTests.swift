import FoldcamCore
import Testing

@Suite struct ScreenAdvisorTests {
    /// World up turning clockwise on the viewer's screen; the advice holds each quarter turn
    /// until up is 55° from it (45° + 10° of hysteresis), so it does not flicker at 45°.
    @Test func rotationHysteresisAround45Degrees() {
        let steps: [(Double, Int)] = [
            (0, 0), (40, 0), (45, 0), (50, 0), (54, 0), (56, 90), (50, 90), (40, 90), (36, 90), (34, 0),
            (350, 0), (306, 0), (304, 270), (320, 270), (200, 180), (134, 180), (126, 180), (124, 90),
        ]
        var previous: Int? = nil
        for (angle, expected) in steps {
            let rotation = ScreenAdvisor.rotation(forUpAngle: angle, previous: previous)
            #expect(rotation == expected, "up at \(angle)° after \(previous.map(String.init) ?? "none")")
            previous = rotation
        }
    }

    @Test func withoutMemoryTheNearestQuarterTurnWins() {
        let table: [(Double, Int)] = [(0, 0), (44, 0), (46, 90), (134, 90), (136, 180), (224, 180), (226, 270), (314, 270), (316, 0), (359.9, 0)]
        for (angle, expected) in table {
            #expect(ScreenAdvisor.rotation(forUpAngle: angle, previous: nil) == expected, "up at \(angle)°")
        }
    }

    /// The dual-screen laptop opened flat (lid 180°): both displays in one plane, so gravity
    /// tilting in that plane turns both the same way, and through the same hysteresis.
    @Test func flatDualScreenTiltsTogether() throws {
        var rig = try Harness("dual-screen")
        rig.hinge("lid", 180)
        let steps: [(degrees: Double, rotation: Int)] = [(0, 0), (50, 0), (60, 90), (40, 90), (30, 0), (-60, 270), (180, 180)]
        for step in steps {
            // Up tilted clockwise (as the viewer of face A sees it) by `degrees` from the panels' +y.
            let (sin, cos) = Trig.sinCos(Trig.radians(step.degrees))
            rig.apply(.gravity(Vector3(-9.8 * sin, -9.8 * cos, -1)))
            #expect(rig.screen("top").rotation == step.rotation, "tilt \(step.degrees)°")
            #expect(rig.screen("bottom").rotation == step.rotation, "tilt \(step.degrees)°")
        }
    }

    @Test func noGravityMeansNoRotationAdvice() throws {
        let rig = try Harness("dual-screen")
        #expect(rig.screen("top") == ScreenAdvice(rotation: nil, transform: nil, noRotationReason: .noGravity, offReason: nil))
    }

    /// Lying flat (gravity along the normal): up cannot be told, so the last advice stays; with
    /// none yet, none is given, with the reason.
    @Test func gravityAlongTheNormalKeepsTheLastAdvice() throws {
        var rig = try Harness("dual-screen")
        rig.hinge("lid", 180)
        rig.apply(.gravity(Vector3(0, 0, -9.8)))
        #expect(rig.screen("bottom").rotation == nil && rig.screen("bottom").noRotationReason == .gravityAlongNormal)
        rig.apply(.gravity(Vector3(-9.8, 0, 0)))
        #expect(rig.screen("bottom").rotation == 90)
        rig.apply(.gravity(Vector3(0, 0, -9.8)))
        #expect(rig.screen("bottom").rotation == 90 && rig.screen("bottom").noRotationReason == nil)
    }

    /// The screen rotation the compositor reports is an input for the previews only: it never
    /// changes the advice (the follower applying it would otherwise chase its own tail).
    @Test func reportedScreenRotationDoesNotFeedBack() throws {
        var rig = try Harness("dual-screen")
        rig.hinge("lid", 180)
        rig.apply(.gravity(Vector3(-9.8, 0, 0)))
        let before = rig.state.screens
        let update = rig.apply(.screenRotation(display: rig.rig.displayIndex("top")!, degrees: 90))
        #expect(rig.state.screens == before)
        #expect(!update.change.screens)
    }

    @Test func coveredAndFoldedShutDisplaysShouldBeOff() throws {
        var duo = try Harness("duo")
        let table: [(fold: Double, inner: ScreenAdvice.OffReason?, outer: ScreenAdvice.OffReason?)] = [
            (180, nil, nil), (20, nil, nil), (10, .foldedShut, nil), (0, .foldedShut, nil), (90, nil, nil),
        ]
        for row in table {
            duo.hinge("fold", row.fold)
            #expect(duo.screen("inner").offReason == row.inner, "fold \(row.fold)°")
            #expect(duo.screen("inner").on == (row.inner == nil), "fold \(row.fold)°")
            #expect(duo.screen("outer").offReason == row.outer, "fold \(row.fold)°")
        }
        var laptop = try Harness("dual-screen")
        laptop.hinge("lid", 5)
        #expect(laptop.screen("top").offReason == .covered && laptop.screen("bottom").offReason == .covered)
        let update = laptop.hinge("lid", 110)
        #expect(laptop.screen("top").on && laptop.screen("bottom").on && update.change.screens)
    }

    /// Up along +x on the flat dual-screen's top display is a 90° turn of the content; a panel
    /// mounted turned in its housing needs that much less from the compositor.
    @Test func transformSubtractsTheMountRotation() throws {
        let rig = try preset("dual-screen")
        let pose = RigPose(rig: rig, angles: [180])
        let top = rig.displays[rig.displayIndex("top")!]
        for (mount, expected) in [(0, 90), (90, 0), (270, 180)] {
            let advice = ScreenAdvisor.advise(
                top, occluded: false, mountRotation: mount, gravity: Vector3(-9.8, 0, 0), pose: pose, minimumProjection: 0.3, previous: nil)
            #expect(advice.rotation == 90 && advice.transform == expected, "mount \(mount)")
        }
    }
}

extension Harness {
    func screen(_ display: String) -> ScreenAdvice { state.screens[rig.displayIndex(display)!] }
}
