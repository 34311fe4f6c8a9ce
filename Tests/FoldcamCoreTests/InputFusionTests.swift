import FoldcamCore
import Foundation
import Testing

@Suite struct InputFusionTests {
    @Test func twoAccelerometersGiveHingeAngleAndGravity() throws {
        var convertible = try Harness("convertible")
        let base = convertible.rig.accelerometerIndex("base")!
        let display = convertible.rig.accelerometerIndex("display")!
        convertible.apply(.accelerometer(sensor: base, reading: Vector3(0, 0, -9.8)))
        convertible.apply(.accelerometer(sensor: display, reading: Vector3(0, 3.4, -9.2)))
        #expect(convertible.state.hingeSources == [.accelerometers])
        #expect(abs(convertible.hingeAngle - 200.28) < 0.05)
        #expect(convertible.posture == "tent")
        let gravity = try #require(convertible.state.gravity)
        #expect(abs(gravity.z + 9.8) < 1e-9)
    }

    @Test(arguments: [30.0, 95.0, 110.0, 175.0, 250.0, 330.0])
    func accelerometerAngleMatchesTheGeometry(angle: Double) throws {
        var convertible = try Harness("convertible")
        let rig = convertible.rig
        // Gravity tilted so it is not along the hinge axis (x).
        let gravity = Vector3(0.2, -0.4, -0.89)
        let pose = RigPose(rig: rig, angles: [angle])
        let lidReading = pose.orientations[rig.panelIndex("lid")!].inverse.apply(gravity)
        convertible.hinge("lid", 110)  // a nearby starting point for the 0/360 ambiguity
        convertible.apply(.hingeSensorLost(hinge: 0))
        convertible.apply(.accelerometer(sensor: 0, reading: gravity))
        convertible.apply(.accelerometer(sensor: 1, reading: lidReading))
        #expect(abs(convertible.hingeAngle - angle) < 1e-6)
    }

    @Test func gravityAlongTheHingeAxisGivesNoAngle() throws {
        var convertible = try Harness("convertible")
        convertible.hinge("lid", 120)
        convertible.apply(.hingeSensorLost(hinge: 0))
        convertible.apply(.accelerometer(sensor: 0, reading: Vector3(-9.8, 0, 0)))
        let update = convertible.apply(.accelerometer(sensor: 1, reading: Vector3(-9.8, 0.1, 0)))
        #expect(update.warnings.count == 1)
        // Falls back to the last reading rather than inventing an angle.
        #expect(convertible.hingeAngle == 120)
        #expect(convertible.state.hingeSources == [.lastReading])
    }

    @Test func lostHingeSensorFallsBackToAccelerometersThenSwitches() throws {
        var convertible = try Harness("convertible")
        convertible.apply(.accelerometer(sensor: 0, reading: Vector3(0, 0, -9.8)))
        convertible.apply(.accelerometer(sensor: 1, reading: Vector3(0, 3.4, -9.2)))
        convertible.hinge("lid", 100)
        #expect(convertible.state.hingeSources == [.sensor])
        #expect(convertible.hingeAngle == 100)
        convertible.apply(.hingeSensorLost(hinge: 0))
        #expect(convertible.state.hingeSources == [.accelerometers])
        #expect(abs(convertible.hingeAngle - 200.28) < 0.05)
        convertible.apply(.accelerometerLost(sensor: 1))
        #expect(convertible.state.hingeSources == [.lastReading])
        convertible.apply(.tabletModeSwitch(on: true))
        #expect(convertible.state.hingeSources == [.tabletModeSwitch])
        #expect(convertible.hingeAngle == 360)
    }

    // Readings far outside the range set the sensor aside: SensorPlausibilityTests.

    @Test func readingsJustPastTheEndAreClamped() throws {
        var duo = try Harness("duo")
        let update = duo.hinge("fold", 180.6)
        #expect(update.warnings.isEmpty)
        #expect(duo.hingeAngle == 180)
    }

    @Test func badAccelerometerAndGravityReadingsAreDropped() throws {
        var convertible = try Harness("convertible")
        #expect(convertible.apply(.accelerometer(sensor: 0, reading: Vector3(.nan, 0, 1))).warnings.count == 1)
        #expect(convertible.apply(.gravity(Vector3(0, 0, 0))).warnings.count == 1)
        #expect(convertible.state.gravity == nil)
    }
}

@Suite struct ViewedDisplayTests {
    @Test func pinnedDisplayFoldedShutYieldsUntilVisibleAgain() throws {
        var duo = try Harness("duo")
        duo.apply(.pinView(display: duo.rig.displayIndex("inner")))
        duo.hinge("fold", 0)
        #expect(duo.viewed == "outer")
        #expect(duo.state.pinnedDisplay == duo.rig.displayIndex("inner"))
        duo.hinge("fold", 10)
        #expect(duo.viewed == "outer")
        duo.hinge("fold", 20)  // still the closed posture, but the inner display is visible
        #expect(duo.posture == "closed")
        #expect(duo.viewed == "inner")
        #expect(duo.source == "inner-front")
    }

    @Test func pinChangesTheVirtualCameraSourceAndUnpinRestoresIt() throws {
        var duo = try Harness("duo")
        let update = duo.apply(.pinView(display: duo.rig.displayIndex("outer")))
        #expect(duo.source == "outer-front")
        #expect(update.change.viewedDisplay && update.change.virtualCameraSource)
        #expect(update.change.displays.isEmpty)
        duo.apply(.pinView(display: nil))
        #expect(duo.source == "inner-front")
    }

    @Test func busySourceMovesTheVirtualCameraToTheNextForwardCamera() throws {
        var duo = try Harness("duo")
        duo.apply(.pinView(display: duo.rig.displayIndex("outer")))
        duo.apply(.cameraBusy(camera: duo.rig.cameraIndex("outer-front")!, busy: true))
        #expect(duo.camera("outer-front").unavailable == .busy)
        #expect(duo.source == "back")
        duo.apply(.cameraUnplugged(camera: duo.rig.cameraIndex("back")!))
        #expect(duo.source == nil)
        #expect(duo.state.virtualCamera.noSourceReason == .noForwardCamera)
    }

    @Test func preferredDeviceTypesComeFirst() throws {
        var text = try #require(RigPresets.json("duo"))
        text = text.replacingOccurrences(of: "\"tunables\"", with: "\"virtualCamera\": {\"preferDeviceTypes\": [\"wide\"]},\n  \"tunables\"")
        var duo = Harness(rig: try RigDecoder.decode(json: text))
        duo.apply(.pinView(display: duo.rig.displayIndex("outer")))
        #expect(duo.forward("outer") == ["outer-front", "back"])
        #expect(duo.source == "back")
    }

    @Test func changesNameOnlyWhatChanged() throws {
        var duo = try Harness("duo")
        let small = duo.hinge("fold", 170)
        #expect(small.change.topics == ["hinges"])
        let closing = duo.hinge("fold", 0)
        #expect(closing.change.topics == ["hinges", "posture", "viewedDisplay", "directions", "cameras", "virtualCamera", "screens"])
        #expect(closing.change.displays == [duo.rig.displayIndex("inner")!, duo.rig.displayIndex("outer")!])
        #expect(closing.change.cameras == [duo.rig.cameraIndex("inner-front")!])
        let same = duo.hinge("fold", 0)
        #expect(same.change.isEmpty)
    }
}

@Suite struct AccelerometerPairingTests {
    /// Each angle comes from two readings of the same moment: the order the two sensors report
    /// in does not change the result.
    @Test func readingOrderDoesNotMatter() throws {
        func run(baseFirst: Bool) throws -> Double {
            var convertible = try Harness("convertible")
            let steps: [(Vector3, Vector3)] = [
                (Vector3(0, -6.93, -6.93), Vector3(0, 6.93, -6.93)),
                (Vector3(0, 0, 9.8), Vector3(0, 0, -9.8)),
            ]
            for (base, display) in steps {
                let events: [InputEvent] = [.accelerometer(sensor: 0, reading: base), .accelerometer(sensor: 1, reading: display)]
                for event in baseFirst ? events : events.reversed() { convertible.apply(event) }
            }
            return convertible.hingeAngle
        }
        let first = try run(baseFirst: true)
        #expect(first == (try run(baseFirst: false)))
        #expect(first == 360)
    }

    @Test func oneSensorAloneGivesNoNewAngle() throws {
        var convertible = try Harness("convertible")
        convertible.apply(.accelerometer(sensor: 0, reading: Vector3(0, 0, -9.8)))
        convertible.apply(.accelerometer(sensor: 1, reading: Vector3(0, 3.4, -9.2)))
        let angle = convertible.hingeAngle
        convertible.apply(.accelerometer(sensor: 1, reading: Vector3(0, -9.2, -3.4)))
        #expect(convertible.hingeAngle == angle)
        convertible.apply(.accelerometer(sensor: 0, reading: Vector3(0, 0, -9.8)))
        #expect(convertible.hingeAngle != angle)
    }
}
