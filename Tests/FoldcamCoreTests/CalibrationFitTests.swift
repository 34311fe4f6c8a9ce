import FoldcamCore
import Testing

/// `foldcamctl calibrate`'s arithmetic: the hinge fit, the swapped-label test, settled readings,
/// the steps a hinge can reach, and the corrections merged into a model's JSON.
@Suite struct CalibrationFitTests {
    typealias Recorded = CalibrationFit.Recorded

    static func steps(_ targets: [Double], _ reading: (Double) -> Double) -> [Recorded] {
        targets.map { Recorded(target: $0, reading: reading($0)) }
    }

    static let hingeCases: [(name: String, steps: [Recorded], sign: Int, offset: Double)] = [
        ("already right", steps([0, 90, 180, 300]) { $0 }, 1, 0),
        ("right with a little noise", steps([0, 90, 180, 300]) { $0 + ($0 == 90 ? 1.4 : -0.6) }, 1, 0),
        ("counts the other way from 360 (reads 360 - angle)", steps([0, 90, 180, 300]) { 360 - $0 }, -1, 360),
        ("counts the other way from 0 (reads -angle)", steps([0, 90, 180]) { -$0 }, -1, 0),
        ("zero is 20° off (reads angle + 20)", steps([0, 90, 180]) { $0 + 20 }, 1, -20),
        ("a dual-screen hinge read reversed, no tent step", steps([0, 90, 180]) { 180 - $0 }, -1, 180),
    ]

    @Test(arguments: hingeCases)
    func theHingeFitFindsSignAndOffset(_ example: (name: String, steps: [Recorded], sign: Int, offset: Double)) throws {
        let fit = try CalibrationFit.hinge(example.steps).get()
        #expect(fit.correction == HingeCorrection(sign: example.sign, offset: example.offset), "\(example.name)")
        #expect(fit.worstResidual <= 2, "\(example.name)")
        for step in example.steps {
            #expect(abs(fit.correction.apply(step.reading) - step.target) <= 2, "\(example.name) at \(step.target)")
        }
    }

    static let refusedCases: [(name: String, steps: [Recorded], says: String)] = [
        ("stuck at 0 (Yoga Book 9i)", steps([0, 90, 180]) { _ in 0 }, "fit no sign and offset"),
        ("always 360 (Yoga Book YB1)", steps([0, 90, 180, 300]) { _ in 360 }, "fit no sign and offset"),
        ("the user skipped the 90° step", steps([0, 90, 180]) { $0 == 90 ? 180 : $0 }, "the rig was not held as asked"),
        ("half the angle: not degrees", steps([0, 90, 180, 300]) { $0 / 2 }, "fit no sign and offset"),
        ("one step only", steps([90]) { $0 }, "two angles at least"),
        ("an offset beyond 360", steps([0, 90, 180]) { -$0 - 400 }, "outside -360...360"),
    ]

    @Test(arguments: refusedCases)
    func readingsThatFitNoCorrectionAreRefused(_ example: (name: String, steps: [Recorded], says: String)) {
        guard case let .failure(error) = CalibrationFit.hinge(example.steps) else {
            Issue.record("\(example.name): fitted")
            return
        }
        #expect(error.message.contains(example.says), "\(example.name): \(error.message)")
    }

    static let swapCases: [(name: String, steps: [Recorded], swapped: Bool?)] = [
        ("labels right", steps([0, 90, 180, 300]) { $0 }, false),
        ("labels swapped: the mirror angle at 90° and tent", steps([0, 90, 180, 300]) { 360 - $0 }, true),
        ("swapped, dual-screen (90° tells alone)", steps([0, 90, 180]) { 360 - $0 }, true),
        ("only 0° and 180°: cannot tell", steps([0, 180]) { $0 }, nil),
        ("a little off still right", steps([90, 300]) { $0 + 12 }, false),
    ]

    @Test(arguments: swapCases)
    func swappedLabelsAreTheMirrorAngle(_ example: (name: String, steps: [Recorded], swapped: Bool?)) throws {
        #expect(try CalibrationFit.swappedLabels(example.steps).get() == example.swapped, "\(example.name)")
    }

    @Test func accelerometersThatFitNeitherWayAreRefused() {
        let steps = [Recorded(target: 90, reading: 90), Recorded(target: 300, reading: 60)]
        guard case let .failure(error) = CalibrationFit.swappedLabels(steps) else {
            Issue.record("one step right, one mirrored: decided")
            return
        }
        #expect(error.message.contains("neither their labels as they are nor swapped fit"))
    }

    @Test func readingsSettleAfterFiveWithinADegree() {
        var steady = SteadyReadings()
        // Moving, then five within 1° (one channel with nothing: gravity along the hinge).
        let samples: [[Double?]] = [[80, nil], [85, nil], [89.6, nil], [90.1, nil], [90.4, nil], [89.8, nil]]
        var settled: [Double?]?
        for (index, sample) in samples.enumerated() {
            settled = steady.add(sample)
            if index < 5 { #expect(settled == nil, "settled after \(index + 1) samples") }
        }
        #expect(settled == nil, "85 is still in the window")
        let last = steady.add([90, nil])
        let value = last?[0] ?? nil
        #expect(value.map { abs($0 - 89.98) < 0.01 } == true, "\(String(describing: last))")
        #expect(last?[1] == .some(nil))
        // A channel that reads in some samples and not others has not settled.
        var flickering = SteadyReadings()
        let outcomes = [[90, 10], [90, nil], [90, 10], [90, 10], [90, 10], [90, 10], [90, 10]].map { flickering.add($0) }
        #expect(outcomes.dropLast().allSatisfy { $0 == nil })
        #expect(outcomes.last! != nil, "settled once the window holds five full samples")
    }

    @Test func theTentStepNeedsAHingeThatReachesIt() throws {
        let convertible = try #require(try RigPresets.rig("convertible"))
        let dual = try #require(try RigPresets.rig("dual-screen"))
        #expect(CalibrationStep.steps(for: convertible.hinges[0]).map(\.target) == [0, 90, 180, 300])
        #expect(CalibrationStep.steps(for: dual.hinges[0]).map(\.target) == [0, 90, 180])
    }
}
