import FoldcamCore
import Testing

/// iio-sensor-proxy's quarter-turn orientation as a gravity hint: each value's vector is the one
/// the proxy's own cut gives back, and unknown text is refused with the nearest value.
@Suite struct ProxyOrientationTests {
    @Test func eachHintIsCutBackToItself() {
        for orientation in ProxyOrientation.allCases where orientation != .undefined {
            guard let gravity = orientation.gravity else { Issue.record("\(orientation) has no gravity"); continue }
            #expect(abs(gravity.length - 1) < 1e-12)
            #expect(ProxyOrientation.of(gravity) == orientation)
        }
        #expect(ProxyOrientation.undefined.gravity == nil)
    }

    @Test func anUprightPanelReadsNormalAndAFlatOneUndefined() {
        // hwdb convention: upright reads −y (gravity points down the panel).
        #expect(ProxyOrientation.of(Vector3(0, -9.8, 0)) == .normal)
        #expect(ProxyOrientation.of(Vector3(0.5, -0.3, -9.8)) == .undefined)
        // Tilted 30° towards the left edge only: under the 35° threshold, still landscape.
        #expect(ProxyOrientation.of(Vector3(4.9, -8.5, 0)) == .normal)
        #expect(ProxyOrientation.of(Vector3(8.5, -4.9, 0)) == .leftUp)
        #expect(ProxyOrientation.of(Vector3(-8.5, -4.9, 0)) == .rightUp)
        #expect(ProxyOrientation.of(Vector3(0, 9.8, 0)) == .bottomUp)
        #expect(ProxyOrientation.of(Vector3(0, 0, 0)) == .undefined)
    }

    @Test func theProxysTextIsParsedAndNonsenseRefused() throws {
        #expect(try ProxyOrientation(parsing: "left-up") == .leftUp)
        #expect(throws: PathError.self) { try ProxyOrientation(parsing: "left_up") }
        do {
            _ = try ProxyOrientation(parsing: "bottom_up")
        } catch {
            #expect(error.description.contains("did you mean \"bottom-up\""))
        }
    }

    // -- In the engine: a hint for rotation when nothing measured gravity --------------------

    static func convertible() throws -> (engine: FoldEngine, display: Int, base: Int) {
        let rig = try #require(try RigPresets.rig("convertible"))
        var engine = FoldEngine(rig: rig)
        _ = engine.apply(.hingeAngle(hinge: 0, degrees: 180))
        return (engine, try #require(rig.accelerometerIndex("display")), try #require(rig.accelerometerIndex("base")))
    }

    @Test func theProxysTurnSetsGravityAndCaptureRotation() throws {
        var (engine, display, _) = try Self.convertible()
        #expect(engine.state.gravity == nil)
        _ = engine.apply(.accelerometerOrientation(sensor: display, orientation: .normal))
        let upright = engine.state
        _ = engine.apply(.accelerometerOrientation(sensor: display, orientation: .leftUp))
        let turned = engine.state
        #expect(upright.gravity != nil && turned.gravity != nil && upright.gravity != turned.gravity)
        #expect(upright.cameras.map(\.captureRotation) != turned.cameras.map(\.captureRotation), "\(upright.cameras) \(turned.cameras)")
        // Lying flat (undefined) withdraws the hint.
        _ = engine.apply(.accelerometerOrientation(sensor: display, orientation: .undefined))
        #expect(engine.state.gravity == nil)
    }

    @Test func measuredGravityWinsAndAHintIsNeverAHingeAngle() throws {
        var (engine, display, base) = try Self.convertible()
        _ = engine.apply(.hingeSensorLost(hinge: 0))
        let angles = engine.state.hingeAngles
        // Two hints, as two quarter turns a hinge apart, give no hinge angle.
        _ = engine.apply(.accelerometerOrientation(sensor: display, orientation: .leftUp))
        _ = engine.apply(.accelerometerOrientation(sensor: base, orientation: .normal))
        #expect(engine.state.hingeAngles == angles)
        // A real reading of the display accelerometer wins over its hint.
        _ = engine.apply(.accelerometer(sensor: display, reading: Vector3(0, -9.8, 0)))
        var withoutHint = try Self.convertible().engine
        _ = withoutHint.apply(.hingeSensorLost(hinge: 0))
        _ = withoutHint.apply(.accelerometer(sensor: display, reading: Vector3(0, -9.8, 0)))
        #expect(engine.state.gravity == withoutHint.state.gravity)
    }

    @Test func aScenarioStepGivesTheProxysOrientation() throws {
        let rig = try #require(try RigPresets.rig("convertible"))
        let scenario = try Scenario.decode(json: #"{"steps": [{"accelerometerOrientation": {"display": "left-up"}}]}"#, rig: rig)
        #expect(scenario.steps == [[.accelerometerOrientation(sensor: rig.accelerometerIndex("display")!, orientation: .leftUp)]])
        #expect(throws: DocumentErrors.self) { try Scenario.decode(json: #"{"steps": [{"accelerometerOrientation": {"display": "left"}}]}"#, rig: rig) }
    }
}
