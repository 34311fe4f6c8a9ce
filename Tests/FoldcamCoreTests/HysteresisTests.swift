import FoldcamCore
import Testing

@Suite struct HysteresisTests {
    @Test func postureNearTheOpenBoundary() throws {
        var duo = try Harness("duo")
        let steps: [(Double, String)] = [(180, "open"), (148, "open"), (144, "halfOpen"), (152, "halfOpen"), (156, "open")]
        for (angle, posture) in steps {
            duo.hinge("fold", angle)
            #expect(duo.posture == posture, "at \(angle)°")
        }
    }

    @Test func postureNearTheClosedBoundary() throws {
        var duo = try Harness("duo")
        let steps: [(Double, String)] = [(90, "halfOpen"), (27, "halfOpen"), (24, "closed"), (33, "closed"), (36, "halfOpen")]
        for (angle, posture) in steps {
            duo.hinge("fold", angle)
            #expect(duo.posture == posture, "at \(angle)°")
        }
    }

    /// The back camera's θ to the outer display is 180° − fold; its side holds within 90 ± 10.
    @Test func directionNear90Degrees() throws {
        var duo = try Harness("duo")
        let steps: [(Double, Bool)] = [
            (180, true), (95, true), (85, true), (81, true), (79, false), (85, false), (95, false), (99, false), (101, true),
        ]
        for (angle, forward) in steps {
            duo.hinge("fold", angle)
            #expect(duo.forward("outer").contains("back") == forward, "at \(angle)°")
            #expect(duo.backward("outer").contains("back") == !forward, "at \(angle)°")
        }
    }

    @Test func aCameraReturningFromUnavailableIsClassifiedAfresh() throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 180)
        duo.hinge("fold", 85)  // θ = 95: still forward through hysteresis
        #expect(duo.forward("outer").contains("back"))
        let back = duo.rig.cameraIndex("back")!
        duo.apply(.cameraUnplugged(camera: back))
        #expect(duo.camera("back").unavailable == .unplugged)
        #expect(!duo.forward("outer").contains("back") && !duo.backward("outer").contains("back"))
        duo.apply(.cameraPlugged(camera: back))
        // Fresh: θ = 95 > 90 is backward, with no memory of having been forward.
        #expect(duo.backward("outer").contains("back"))
    }

    @Test func forwardIsOrderedByThetaAndBackwardByThetaDescending() throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 120)
        // For outer at 120°: outer-front θ 0, back θ 60.
        #expect(duo.forward("outer") == ["outer-front", "back"])
        let thetas = duo.forward("outer").map { duo.pair("outer", $0)!.theta }
        #expect(thetas == thetas.sorted())
        #expect(abs(thetas[1] - 60) < 1e-9)
    }
}
