import FoldcamCore
import Testing

/// Invariants over random rigs and random inputs (seeded, so failures replay).
@Suite struct PropertyTests {
    /// A random valid rig: a tree of 1–4 panels with random unit axes and ranges, displays and
    /// cameras on random faces, one catch-all posture.
    static func randomRig(_ generator: inout SeededGenerator) throws -> Rig {
        let panelCount = Int.random(in: 1...4, using: &generator)
        var panels: [String] = []
        for index in 0..<panelCount {
            if index == 0 {
                panels.append(#"{"id": "p0"}"#)
                continue
            }
            let parent = Int.random(in: 0..<index, using: &generator)
            var axis = Vector3.zero
            while axis.length < 0.1 {
                axis = Vector3(Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator))
            }
            let unit = (1 / axis.length) * axis
            let low = Double(Int.random(in: 0...90, using: &generator))
            let high = Double(Int.random(in: 180...360, using: &generator))
            panels.append(#"{"id": "p\#(index)", "parent": "p\#(parent)", "hinge": {"id": "h\#(index)", "axis": [\#(unit.x), \#(unit.y), \#(unit.z)], "range": [\#(low), \#(high)]}}"#)
        }
        func randomFace(_ generator: inout SeededGenerator) -> String {
            "p\(Int.random(in: 0..<panelCount, using: &generator)).\(Bool.random(using: &generator) ? "A" : "B")"
        }
        let displays = (0..<Int.random(in: 1...3, using: &generator)).map { #"{"id": "d\#($0)", "faces": ["\#(randomFace(&generator))"]}"# }
        let cameras = (0..<Int.random(in: 1...6, using: &generator)).map {
            #"{"id": "c\#($0)", "face": "\#(randomFace(&generator))", "sensorRotation": \#(90 * Int.random(in: 0...3, using: &generator)), "formats": [{"pixelFormats": ["YUYV"], "width": 640, "height": 480, "fps": 30}]}"#
        }
        let text = """
            {"id": "random", "panels": [\(panels.joined(separator: ","))],
             "displays": [\(displays.joined(separator: ","))], "cameras": [\(cameras.joined(separator: ","))],
             "postures": [{"id": "any", "ranges": {}, "display": "d0"}]}
            """
        return try RigDecoder.decode(json: text)
    }

    static func randomEvents(_ rig: Rig, count: Int, _ generator: inout SeededGenerator) -> [InputEvent] {
        (0..<count).map { _ in
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5 where !rig.hinges.isEmpty:
                let hinge = Int.random(in: 0..<rig.hinges.count, using: &generator)
                return .hingeAngle(hinge: hinge, degrees: Double.random(in: rig.hinges[hinge].minimum...rig.hinges[hinge].maximum, using: &generator))
            case 5:
                return .gravity(Vector3(Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator)))
            case 6:
                return .cameraUnplugged(camera: Int.random(in: 0..<rig.cameras.count, using: &generator))
            case 7:
                return .cameraPlugged(camera: Int.random(in: 0..<rig.cameras.count, using: &generator))
            case 8:
                return .screenRotation(display: Int.random(in: 0..<rig.displays.count, using: &generator), degrees: 90 * Int.random(in: 0...3, using: &generator))
            default:
                return .pinView(display: Bool.random(using: &generator) ? nil : Int.random(in: 0..<rig.displays.count, using: &generator))
            }
        }
    }

    static func checkInvariants(_ state: FoldState, rig: Rig) {
        for display in state.displays {
            if display.occluded {
                #expect(display.forward.isEmpty && display.backward.isEmpty)
                continue
            }
            for camera in rig.cameras.indices {
                let inForward = display.forward.contains(camera)
                let inBackward = display.backward.contains(camera)
                if state.cameras[camera].available {
                    #expect(inForward != inBackward, "available camera in exactly one list")
                    #expect(display.pairs[camera]?.mirror == inForward)
                } else {
                    #expect(!inForward && !inBackward, "unavailable camera in neither list")
                }
            }
            let forwardThetas = display.forward.map { display.pairs[$0]!.theta }
            #expect(zip(forwardThetas, forwardThetas.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 })
            let backwardThetas = display.backward.map { display.pairs[$0]!.theta }
            #expect(zip(backwardThetas, backwardThetas.dropFirst()).allSatisfy { $0 >= $1 - 1e-9 })
            for pair in display.pairs.compactMap({ $0 }) {
                #expect([0, 90, 180, 270].contains(pair.previewRotation))
            }
        }
        for camera in state.cameras { #expect([0, 90, 180, 270].contains(camera.captureRotation)) }
        if let source = state.virtualCamera.source {
            #expect(state.displays[state.viewedDisplay].forward.contains(source))
        }
        #expect(!state.displays[state.viewedDisplay].occluded || state.pinnedDisplay == nil || state.viewedDisplay == rig.postures[state.posture].display)
    }

    @Test(arguments: 0..<40)
    func invariantsHoldOnRandomRigs(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 1)
        let rig = try Self.randomRig(&generator)
        let events = Self.randomEvents(rig, count: 150, &generator)
        var engine = FoldEngine(rig: rig)
        Self.checkInvariants(engine.state, rig: rig)
        for event in events {
            _ = engine.apply(event)
            Self.checkInvariants(engine.state, rig: rig)
        }
    }

    @Test(arguments: 0..<10)
    func replayingTheSameStepsGivesTheSameOutput(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 1000)
        let rig = try Self.randomRig(&generator)
        let events = Self.randomEvents(rig, count: 100, &generator)
        func run() -> [String] {
            var engine = FoldEngine(rig: rig)
            return events.map { _ = engine.apply($0); return StateEncoder.encode(engine.state, rig: rig, plan: engine.plan).compactText }
        }
        #expect(run() == run())
    }

    @Test func presetsSatisfyTheInvariantsAcrossTheirWholeRange() throws {
        for id in RigPresets.ids {
            var engine = FoldEngine(rig: try preset(id))
            let rig = engine.rig
            for hinge in rig.hinges.indices {
                for angle in stride(from: rig.hinges[hinge].minimum, through: rig.hinges[hinge].maximum, by: 3) {
                    _ = engine.apply(.hingeAngle(hinge: hinge, degrees: angle))
                    Self.checkInvariants(engine.state, rig: rig)
                }
            }
        }
    }
}
