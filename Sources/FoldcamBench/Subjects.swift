import FoldcamCore

/// A rig under test, with an engine already posed where the full recompute does the most work.
struct Subject {
    var name: String
    var rig: Rig
    var plan: VirtualCameraPlan
    /// Hinge angles of the measured pose.
    var angles: [Double]
    /// Posed, with gravity reported: every display visible, every camera available.
    var engine: FoldEngine

    var pairs: Int { rig.displays.count * rig.cameras.count }

    var shape: String {
        "\(rig.panels.count) panels, \(rig.hinges.count) hinge\(rig.hinges.count == 1 ? "" : "s"), \(rig.cameras.count) cameras, \(rig.displays.count) displays"
    }

    /// Gravity down the panels (−y) and a little behind the root panel: a rig held upright.
    static let gravity = Vector3(0, -0.94, -0.34)

    init(name: String, rig: Rig, angles: [Double]) throws(BenchError) {
        guard angles.count == rig.hinges.count else {
            throw BenchError("\(name): \(angles.count) angles for \(rig.hinges.count) hinges")
        }
        self.name = name
        self.rig = rig
        self.angles = angles
        plan = VirtualCameraPlan(rig: rig)
        var engine = FoldEngine(rig: rig, plan: plan)
        for (hinge, degrees) in angles.enumerated() {
            let update = engine.apply(.hingeAngle(hinge: hinge, degrees: degrees))
            guard update.warnings.isEmpty else { throw BenchError("\(name): \(update.warnings.joined(separator: "; "))") }
        }
        let update = engine.apply(.gravity(Self.gravity))
        guard update.warnings.isEmpty else { throw BenchError("\(name): \(update.warnings.joined(separator: "; "))") }
        let state = engine.state
        guard state.displays.allSatisfy({ !$0.occluded }), state.cameras.allSatisfy(\.available) else {
            throw BenchError("\(name): the measured pose covers a display or camera; pick open angles")
        }
        self.engine = engine
    }

    static func duo() throws(BenchError) -> Subject {
        let rig: Rig?
        do {
            rig = try RigPresets.rig("duo")
        } catch {
            throw BenchError("preset duo does not decode:\n\(error)")
        }
        guard let rig else { throw BenchError("preset duo is missing") }
        return try Subject(name: "duo", rig: rig, angles: [120])
    }

    static func large() throws(BenchError) -> Subject {
        let rig: Rig
        do {
            rig = try LargeRig.rig()
        } catch {
            throw BenchError("the generated large rig does not decode:\n\(error)")
        }
        return try Subject(name: "large", rig: rig, angles: LargeRig.openAngles)
    }

    /// Readings for the first hinge sweeping its whole range and back in 0.7° steps (so
    /// consecutive readings always differ and posture and occlusion boundaries are crossed).
    func sweep() -> [Double] {
        let hinge = rig.hinges[0]
        let up = stride(from: hinge.minimum, to: hinge.maximum, by: 0.7)
        let down = stride(from: hinge.maximum, to: hinge.minimum, by: -0.7)
        return Array(up) + Array(down)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
