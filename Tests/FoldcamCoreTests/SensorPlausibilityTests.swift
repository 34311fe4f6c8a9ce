import FoldcamCore
import Foundation
import Testing

/// One table per rule of `SensorPlausibility` (docs/model.md, "Sensor checks"), each through
/// the engine: a set-aside sensor must stop voting, be named once, and be trusted again.
@Suite struct SensorPlausibilityTests {
    /// Both accelerometer readings that put the convertible's lid at `angle` (gravity tilted off
    /// the hinge axis), applied at `time`.
    @discardableResult
    static func accelerometers(_ harness: inout Harness, _ angle: Double, at time: Int? = nil) -> [FoldUpdate] {
        let rig = harness.rig
        let gravity = Vector3(0.2, -0.4, -0.89)
        let pose = RigPose(rig: rig, angles: [angle])
        let lidReading = pose.orientations[rig.panelIndex("lid")!].inverse.apply(gravity)
        return [
            harness.engine.apply(.accelerometer(sensor: rig.accelerometerIndex("base")!, reading: gravity), atMilliseconds: time),
            harness.engine.apply(.accelerometer(sensor: rig.accelerometerIndex("display")!, reading: lidReading), atMilliseconds: time),
        ]
    }

    static func hinge(_ harness: inout Harness, _ degrees: Double, at time: Int? = nil) -> FoldUpdate {
        harness.engine.apply(.hingeAngle(hinge: 0, degrees: degrees), atMilliseconds: time)
    }

    // MARK: Outside the range

    @Test(arguments: [Double.nan, .infinity, -.infinity, -20, 200, 1e300])
    func readingsFarOutsideTheRangeSetTheSensorAside(reading: Double) throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 120)
        let update = duo.hinge("fold", reading)
        #expect(update.warnings.count == 1)
        #expect(update.warnings[0].contains("hinge fold"))
        #expect(update.warnings[0].contains("outside the hinge's range"))
        #expect(update.change.topics == ["hinges", "sensors"], "the source changes, the angle does not")
        #expect(duo.hingeAngle == 120)
        #expect(duo.state.hingeSources == [.lastReading])
        #expect(duo.state.suspectSensors.map(\.fault) == [.outsideRange])
    }

    @Test(arguments: [-3.0, 184, 185])
    func readingsJustOutsideAreDroppedNotSetAside(reading: Double) throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 120)
        let update = duo.hinge("fold", reading)
        #expect(update.warnings.count == 1)
        #expect(update.change.isEmpty)
        #expect(duo.state.suspectSensors.isEmpty)
        #expect(duo.state.hingeSources == [.sensor])
    }

    @Test func trustedAgainAfterThreePlausibleReadingsInARow() throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 120)
        duo.hinge("fold", 400)
        duo.hinge("fold", 100)
        duo.hinge("fold", 400)  // an implausible one starts the count again
        #expect(duo.hinge("fold", 100).notes.isEmpty)
        #expect(duo.hinge("fold", 90).notes.isEmpty)
        #expect(duo.hingeAngle == 120, "not voting yet")
        let update = duo.hinge("fold", 80)
        #expect(update.notes.count == 1)
        #expect(update.notes[0].contains("fold: trusted again"))
        #expect(update.warnings.isEmpty)
        #expect(duo.hingeAngle == 80)
        #expect(duo.state.hingeSources == [.sensor])
        #expect(duo.state.suspectSensors.isEmpty)
    }

    @Test func oneWarningPerEpisodeNotPerReading() throws {
        var duo = try Harness("duo")
        var warnings = 0
        for _ in 0..<10 { warnings += duo.hinge("fold", 999).warnings.count }
        #expect(warnings == 1)
    }

    // MARK: Exactly zero

    @Test func zeroWhileTheLidSwitchSaysOpenIsSetAside() throws {
        var duo = try Harness("duo")
        duo.apply(.lidSwitch(closed: false))
        let update = duo.hinge("fold", 0)
        #expect(update.warnings.count == 1)
        #expect(update.warnings[0].contains("exactly 0° while the lid switch says open"))
        #expect(duo.state.suspectSensors.map(\.fault) == [.zeroWhileOpen])
        #expect(duo.state.hingeSources == [.initial])
        #expect(duo.posture == "open", "decided from the rig's initial angle, not the impossible 0")
        // The lid closing makes 0 plausible again.
        duo.apply(.lidSwitch(closed: true))
        for _ in 0..<3 { duo.hinge("fold", 0) }
        #expect(duo.state.suspectSensors.isEmpty)
    }

    @Test func zeroWhileTheAccelerometersShowTheLidOpenIsSetAside() throws {
        var convertible = try Harness("convertible")
        Self.accelerometers(&convertible, 100)
        let update = Self.hinge(&convertible, 0)
        #expect(update.warnings.count == 1)
        #expect(update.warnings[0].contains("accelerometers give 100°"))
        #expect(convertible.state.hingeSources == [.accelerometers])
        #expect(abs(convertible.hingeAngle - 100) < 1e-6)
    }

    @Test func aZeroTakenBeforeTheAccelerometersSpokeIsSetAsideWhenTheyDo() throws {
        // A polled sensor reports only changes: its 0 is judged again when new evidence comes.
        var convertible = try Harness("convertible")
        #expect(Self.hinge(&convertible, 0).warnings.isEmpty)
        #expect(convertible.posture == "closed")
        let warnings = Self.accelerometers(&convertible, 90).flatMap(\.warnings)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("exactly 0° while the accelerometers give 90°") == true)
        #expect(convertible.state.hingeSources == [.accelerometers])
        #expect(convertible.posture == "laptop")
    }

    @Test func zeroWithNothingSayingOpenIsAClosedHinge() throws {
        var duo = try Harness("duo")
        let update = duo.hinge("fold", 0)
        #expect(update.warnings.isEmpty)
        #expect(duo.posture == "closed")
        #expect(duo.state.suspectSensors.isEmpty)
    }

    // MARK: Stuck

    @Test func stuckWhileTheAccelerometersMoveIsSetAsideAfterThreeSeconds() throws {
        var convertible = try Harness("convertible")
        _ = Self.hinge(&convertible, 100, at: 0)
        Self.accelerometers(&convertible, 100, at: 0)
        for (time, angle) in [(1000, 130.0), (2000, 160.0)] {
            #expect(Self.hinge(&convertible, 100.2, at: time).warnings.isEmpty)
            Self.accelerometers(&convertible, angle, at: time)
        }
        #expect(convertible.state.hingeSources == [.sensor])
        let update = Self.hinge(&convertible, 100.1, at: 3000)
        #expect(update.warnings.count == 1)
        #expect(update.warnings[0].contains("stayed at 100° for 3 s while the accelerometers moved 60°"))
        #expect(convertible.state.suspectSensors.map(\.fault) == [.stuck])
        #expect(convertible.state.hingeSources == [.accelerometers])
        #expect(abs(convertible.hingeAngle - 160) < 1e-6)
        #expect(Self.hinge(&convertible, 100, at: 3100).warnings.isEmpty, "said once")
        // Losing the accelerometers leaves their last angle standing in, not the stuck value.
        convertible.apply(.accelerometerLost(sensor: 1))
        #expect(convertible.state.hingeSources == [.lastReading])
        #expect(abs(convertible.hingeAngle - 160) < 1e-6)
        // Moving again, three times: trusted.
        _ = Self.hinge(&convertible, 150, at: 4000)
        _ = Self.hinge(&convertible, 152, at: 4100)
        #expect(Self.hinge(&convertible, 155, at: 4200).notes.count == 1)
        #expect(convertible.state.hingeSources == [.sensor])
    }

    @Test func aStuckWindowCompletesWithTimeAloneOnceTheRigMoved() throws {
        // A stuck sensor that posts only changed readings sends nothing after its first value,
        // and the rig may stop moving inside the window: the engine names the time to ask again.
        var convertible = try Harness("convertible")
        let first = Self.hinge(&convertible, 100, at: 0)
        #expect(first.nextCheckAtMilliseconds == nil, "nothing moved yet: no window to wait for")
        Self.accelerometers(&convertible, 100, at: 0)
        let moved = Self.accelerometers(&convertible, 140, at: 500)
        #expect(moved.last?.nextCheckAtMilliseconds == 3000)
        #expect(moved.flatMap(\.warnings).isEmpty)
        #expect(convertible.engine.apply(.advanceTime(milliseconds: 0), atMilliseconds: 2999).warnings.isEmpty)
        let due = convertible.engine.apply(.advanceTime(milliseconds: 0), atMilliseconds: 3000)
        #expect(due.warnings.count == 1)
        #expect(due.warnings.first?.contains("stayed at 100° for 3 s while the accelerometers moved 40°") == true)
        #expect(due.nextCheckAtMilliseconds == nil, "set aside: nothing more to wait for")
        #expect(convertible.state.hingeSources == [.accelerometers])
    }

    @Test func stillWhileEverythingIsStillIsNotStuck() throws {
        var convertible = try Harness("convertible")
        for second in 0...10 {
            _ = Self.hinge(&convertible, 100, at: second * 1000)
            Self.accelerometers(&convertible, 100 + Double(second % 2) * 3, at: second * 1000)
        }
        #expect(convertible.state.suspectSensors.isEmpty)
    }

    @Test func stuckCountsTheScenarioClockAndAHintLidSwitch() throws {
        let text = try #require(RigPresets.json("duo")).replacingOccurrences(
            of: #""lid": {"hinge": "fold", "angle": 0}"#, with: #""lid": {"hinge": "fold", "angle": 0, "mode": "hint"}"#)
        var duo = Harness(rig: try RigDecoder.decode(json: text))
        duo.apply(.lidSwitch(closed: false))
        duo.hinge("fold", 120)
        duo.apply(.lidSwitch(closed: true))
        #expect(duo.apply(.advanceTime(milliseconds: 2999)).warnings.isEmpty)
        let update = duo.apply(.advanceTime(milliseconds: 1))
        #expect(update.warnings.count == 1)
        #expect(update.warnings[0].contains("while the lid switch changed"))
    }

    @Test func anOverrideLidRestsTheSensorSoItIsNotJudgedStuck() throws {
        // The device layer stops polling a hinge an override switch decides: no reading to judge.
        var duo = try Harness("duo")
        duo.apply(.lidSwitch(closed: false))
        duo.hinge("fold", 120)
        duo.apply(.lidSwitch(closed: true))
        #expect(duo.apply(.advanceTime(milliseconds: 10_000)).warnings.isEmpty)
        duo.apply(.lidSwitch(closed: false))
        #expect(duo.apply(.advanceTime(milliseconds: 10_000)).warnings.isEmpty)
        #expect(duo.state.suspectSensors.isEmpty)
    }

    @Test func anOverrideTabletSwitchRestsTheSensorSoTheAccelerometersAreNotJudgedAgainstIt() throws {
        var convertible = try Harness("convertible")
        _ = Self.hinge(&convertible, 100, at: 0)
        Self.accelerometers(&convertible, 100, at: 0)
        _ = convertible.engine.apply(.tabletModeSwitch(on: true), atMilliseconds: 100)
        // Folded back while the sensor rests: 260° is not "the mirror of a stale 100°", nor is
        // 100° standing still for 5 s stuck.
        let warnings = Self.accelerometers(&convertible, 260, at: 5000).flatMap(\.warnings)
            + [convertible.engine.apply(.advanceTime(milliseconds: 0), atMilliseconds: 6000)].flatMap(\.warnings)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(convertible.state.suspectSensors.isEmpty)
    }

    // MARK: Swapped labels

    @Test func accelerometersMirroringTheHingeAreSetAside() throws {
        var convertible = try Harness("convertible")
        _ = Self.hinge(&convertible, 100)
        let updates = Self.accelerometers(&convertible, 260)
        #expect(updates.flatMap(\.warnings).count == 1)
        #expect(updates.flatMap(\.warnings)[0].contains("labels (ACCEL_LOCATION) look swapped"))
        let suspicion = try #require(convertible.state.suspectSensors.first)
        #expect(suspicion.sensor == .accelerometerPair(hinge: 0))
        #expect(suspicion.fault == .swappedLabels)
        #expect(convertible.state.gravity == nil, "gravity from swapped panels is not used either")
        convertible.apply(.hingeSensorLost(hinge: 0))
        #expect(convertible.state.hingeSources == [.lastReading])
        #expect(convertible.hingeAngle == 100)
    }

    @Test func accelerometersThatMerelyDisagreeStillVote() throws {
        var convertible = try Harness("convertible")
        _ = Self.hinge(&convertible, 100)
        #expect(Self.accelerometers(&convertible, 140).flatMap(\.warnings).isEmpty)
        #expect(convertible.state.suspectSensors.isEmpty)
        #expect(convertible.state.gravity != nil)
    }

    @Test func swappedPairTrustedAgainWhenItAgreesThreeTimes() throws {
        var convertible = try Harness("convertible")
        _ = Self.hinge(&convertible, 100)
        Self.accelerometers(&convertible, 260)
        Self.accelerometers(&convertible, 101)
        Self.accelerometers(&convertible, 102)
        #expect(!convertible.state.suspectSensors.isEmpty)
        #expect(Self.accelerometers(&convertible, 100).flatMap(\.notes).count == 1)
        #expect(convertible.state.suspectSensors.isEmpty)
    }

    // MARK: Limits from the rig

    @Test func theRigSetsTheLimits() throws {
        var text = try #require(RigPresets.json("duo"))
        text = text.replacingOccurrences(of: #""tunables": {"#, with: #""tunables": {"plausibility": {"outsideRange": 30}, "#)
        var duo = Harness(rig: try RigDecoder.decode(json: text))
        duo.hinge("fold", 120)
        duo.hinge("fold", 200)
        #expect(duo.state.suspectSensors.isEmpty, "20° out is within this rig's 30°")
    }

    @Test func anUnknownLimitIsRefusedWithTheNearestName() throws {
        var text = try #require(RigPresets.json("duo"))
        text = text.replacingOccurrences(of: #""tunables": {"#, with: #""tunables": {"plausibility": {"stuckFor": 3000}, "#)
        #expect(throws: DocumentErrors.self) { _ = try RigDecoder.decode(json: text) }
        do {
            _ = try RigDecoder.decode(json: text)
        } catch {
            #expect("\(error)".contains("stuckForMilliseconds"))
        }
    }
}
