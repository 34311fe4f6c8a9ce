@testable import FoldcamCore
import Testing

/// Issue 11: every rig costs bounded time and memory. Work is counted where the code exposes a
/// count; otherwise a generous time bound (minutes would mean an exponential or quadratic walk).
@Suite struct BoundedRigTests {
    @Test func thirtyHingesValidateAndPlanWithinTheSampleBudget() throws {
        // A camera that never faces the display (p0.B) keeps the pool search from stopping early.
        let text = RigFixtures.chain(hinges: 30, cameras: [
            RigFixtures.camera("front", "p0.A"), RigFixtures.camera("never", "p0.B"), RigFixtures.camera("tip", "p30.A"),
        ])
        var rig: Rig?
        let elapsed = try seconds { rig = try RigDecoder.decode(json: text) }
        let (pool, samples) = VirtualCameraPlan.poolAndSamples(try #require(rig))
        #expect(samples <= HingeSamples.budget)
        #expect(samples == 30 * 361)  // one 1° sweep per hinge; 2^30 grid points do not fit
        #expect(pool.map { rig!.cameras[$0].id } == ["front", "tip"])
        #expect(elapsed < 20)  // minutes before: exponential or quadratic
    }

    @Test func fifteenHingesAddATwoValueGridWithinTheBudget() throws {
        let rig = try RigDecoder.decode(json: RigFixtures.chain(hinges: 15, cameras: [
            RigFixtures.camera("front", "p0.A"), RigFixtures.camera("never", "p0.B"),
        ]))
        let samples = HingeSamples.forEach(rig) { _ in true }
        #expect(samples == 15 * 361 + 32_768)
        #expect(samples <= HingeSamples.budget)
    }

    @Test func oneHingeIsSweptEveryDegree() throws {
        let rig = try RigPresets.rig("duo")!
        var folds: [Double] = []
        HingeSamples.forEach(rig) { folds.append($0[0]); return true }
        #expect(folds == (0...180).map(Double.init))
    }

    @Test func deepChainsAreRefusedByThePanelLimitQuickly() {
        var errors: [String] = []
        let elapsed = seconds { errors = RigFixtures.errors(RigFixtures.chain(hinges: 10_000)) }
        #expect(errors.contains { $0.hasPrefix("panels: 10001 panels, more than the 32 foldcam accepts") })
        #expect(elapsed < 20)  // minutes before: exponential or quadratic
    }

    @Test func theLimitsAreAcceptedExactlyAndRefusedOneBeyond() {
        #expect(RigFixtures.errors(RigFixtures.chain(hinges: RigLimits.panels - 1)) == [])
        #expect(RigFixtures.errors(RigFixtures.chain(hinges: RigLimits.panels)).first?.hasPrefix("panels: 33 panels, more than the 32") == true)

        let cameras = (0..<RigLimits.cameras).map { RigFixtures.camera("c\($0)", "p0.A") }
        #expect(RigFixtures.errors(RigFixtures.chain(hinges: 1, cameras: cameras)) == [])
        #expect(RigFixtures.errors(RigFixtures.chain(hinges: 1, cameras: cameras + [RigFixtures.camera("one-more", "p0.B")]))
            .first?.hasPrefix("cameras: 33 cameras, more than the 32 foldcam accepts") == true)

        let slices = { (count: Int) in (0..<count).map { #"{"fold": [\#(Double($0) * 360 / Double(count)), \#(Double($0 + 1) * 360 / Double(count))]}"# } }
        #expect(RigFixtures.errors(RigFixtures.oneHinge(postures: slices(RigLimits.postures))) == [])
        #expect(RigFixtures.errors(RigFixtures.oneHinge(postures: slices(RigLimits.postures + 1)))
            == ["postures: 1025 postures, more than the 1024 foldcam accepts (see Limits in docs/rig-format.md): merge postures that use the same display"])

        let modes = (0...RigLimits.modesPerCamera).map { #"{"pixelFormats": ["NV12"], "width": \#($0 + 1), "height": 1, "fps": 30}"# }
        let manyModes = #"{"id": "busy", "face": "p0.A", "formats": [\#(modes.joined(separator: ","))]}"#
        #expect(RigFixtures.errors(RigFixtures.chain(hinges: 1, cameras: [manyModes])).first?.hasPrefix("cameras[0].formats: 257 capture modes") == true)
    }

    @Test func overlapsAreCappedWithACount() {
        // 1,024 postures that all cover everything: 523,776 overlapping pairs, 21 messages
        // (one message per pair took 3.6 GB for 3,000 postures).
        let errors = RigFixtures.errors(RigFixtures.oneHinge(postures: Array(repeating: "{}", count: 1024)))
        #expect(errors.count == 21)
        #expect(errors.first == #"postures[1].ranges: posture "p1" overlaps posture "p0" (ranges are [from, to): 'to' is excluded unless it is the hinge's maximum)"#)
        #expect(errors.last == "postures: … and \(1024 * 1023 / 2 - 20) more overlapping pairs of postures")
    }

    @Test(arguments: [
        // A gap far narrower than a degree.
        ([#"{"fold": [0, 80.5]}"#, #"{"fold": [80.7, 360]}"#], "postures: no posture covers fold=80.5 (postures must cover every hinge angle)"),
        // The maximum itself missing: [from, to) leaves out 'to' unless it is the maximum.
        ([#"{"fold": [0, 180]}"#, #"{"fold": [180, 359.999]}"#], "postures: no posture covers fold=359.999 (postures must cover every hinge angle)"),
        ([#"{"fold": [0.001, 360]}"#], "postures: no posture covers fold=0 (postures must cover every hinge angle)"),
    ])
    func coverageIsExact(postures: [String], expected: String) {
        #expect(RigFixtures.errors(RigFixtures.oneHinge(postures: postures)) == [expected])
    }

    @Test func adjacentRangesAndTheIncludedMaximumTile() {
        #expect(RigFixtures.errors(RigFixtures.oneHinge(postures: [#"{"fold": [0, 80.5]}"#, #"{"fold": [80.5, 360]}"#])) == [])
        #expect(RigFixtures.errors(RigFixtures.oneHinge(postures: [#"{"fold": [0, 360]}"#, #"{"fold": [359, 360]}"#]))
            == [#"postures[1].ranges: posture "p1" overlaps posture "p0" (ranges are [from, to): 'to' is excluded unless it is the hinge's maximum)"#])
    }

    @Test func aGapAmongManyHingesIsNamedExactly() throws {
        // Ten hinges split at 180 into 1,024 postures, one missing: h1, h3 and h10 above 180.
        var postures: [String] = []
        for index in 0..<1024 where index != 0b10_0000_0101 {
            let ranges = (0..<10).map { bit in #""h\#(bit + 1)": \#((index >> bit) & 1 == 0 ? "[0, 180]" : "[180, 360]")"# }
            postures.append(#"{"id": "p\#(index)", "ranges": {\#(ranges.joined(separator: ", "))}, "display": "main"}"#)
        }
        let errors = RigFixtures.errors(RigFixtures.chain(hinges: 12, postures: "[\(postures.joined(separator: ", "))]"))
        let setting = (1...12).map { "h\($0)=\([1, 3, 10].contains($0) ? 180 : 0)" }.joined(separator: ", ")
        #expect(errors == ["postures: no posture covers \(setting) (postures must cover every hinge angle)"])
    }

    @Test func presetsStillTile() throws {
        for id in RigPresets.ids { #expect(throws: Never.self) { _ = try RigPresets.rig(id) } }
    }

    @Test func panelOrderIsTheOrderOfRepeatedPasses() throws {
        // c is listed before its parent b, so it joins one pass later than b; d (after a) in pass 1.
        let text = """
            {"id": "order", "panels": [
              {"id": "c", "parent": "b", "hinge": {"id": "hc", "axis": [0, -1, 0], "range": [0, 180]}},
              {"id": "a"},
              {"id": "b", "parent": "a", "hinge": {"id": "hb", "axis": [0, -1, 0], "range": [0, 180]}},
              {"id": "d", "parent": "a", "hinge": {"id": "hd", "axis": [0, 1, 0], "range": [0, 180]}},
              {"id": "e", "parent": "d", "hinge": {"id": "he", "axis": [0, 1, 0], "range": [0, 180]}}],
             "displays": [{"id": "main", "faces": ["a.A"]}],
             "cameras": [\(RigFixtures.camera("cam", "a.A"))],
             "postures": [{"id": "any", "ranges": {}, "display": "main"}]}
            """
        let rig = try RigDecoder.decode(json: text)
        #expect(rig.panels.map(\.id) == ["a", "b", "d", "e", "c"])
        #expect(rig.hinges.map(\.id) == ["hb", "hd", "he", "hc"])
    }

    @Test func errorsAreCappedPerDocument() {
        let unknown = (0..<1000).map { #""x\#($0)": 1"# }.joined(separator: ", ")
        let errors = RigFixtures.errors(RigFixtures.chain(hinges: 1, extra: ", " + unknown))
        #expect(errors.count == ErrorCollector.maximumKept + 1)
        #expect(errors.last == "… and 900 more problems (fix these and check again)")
    }

    @Test func messagesListingIDsStayShort() {
        // 10,000 panels are over the limit, yet their ids are known: a bad reference lists 20.
        let errors = RigFixtures.errors(RigFixtures.chain(hinges: 9_999, cameras: [RigFixtures.camera("cam", "nowhere.A")]))
        #expect(errors.contains(#"cameras[0].face: unknown panel "nowhere" (panels: p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18, p19 and 9980 more)"#))
    }

    @Test func followMayNotListADisplayTwice() {
        let errors = RigFixtures.errors(RigFixtures.chain(hinges: 1, extra: #", "virtualCamera": {"follow": ["main", "main"]}"#))
        #expect(errors == ["virtualCamera.follow: lists a display twice"])
    }
}

@Suite struct BoundedJSONTests {
    @Test func manyKeysParseInLinearTime() throws {
        // Quadratic duplicate detection took minutes here (22 s at -O); a set takes well under one.
        let members = (0..<100_000).map { #""k\#($0)": \#($0)"# }
        var value: JSONValue?
        let elapsed = try seconds { value = try JSONParser.parse("{" + members.joined(separator: ",") + "}") }
        guard case let .object(parsed)? = value else { Issue.record("not an object"); return }
        #expect(parsed.count == 100_000)
        #expect(elapsed < 20)  // minutes before: exponential or quadratic
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{" + members.joined(separator: ",") + #", "k99999": 0}"#) }
    }

    @Test func duplicatesAreFoundInSmallAndLargeObjects() {
        for count in [2, 8, 9, 50] {
            let members = (0..<count).map { #""k\#($0)": 0"# } + [#""k\#(count / 2)": 1"#]
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{" + members.joined(separator: ",") + "}") }
        }
    }

    @Test(arguments: ["1e999", "-1e999", "1" + String(repeating: "0", count: 400)])
    func overflowingNumbersAreRefused(number: String) {
        do {
            _ = try JSONParser.parse("[\(number)]")
            Issue.record("\(number) was accepted")
        } catch {
            #expect(error.message.contains("is out of range"))
            #expect(error.message.contains(String(number.prefix(5))))
        }
    }
}

@Suite struct NonFiniteInputTests {
    @Test(arguments: [Vector3(-1e308, 0, 1e308), Vector3(.infinity, 0, 0), Vector3(.nan, 1, 0), Vector3(0, 0, 0)])
    func gravityWithoutAUsableLengthIsDropped(vector: Vector3) throws {
        var harness = try Harness("duo")
        let update = harness.apply(.gravity(vector))
        #expect(update.warnings.count == 1)
        #expect(harness.state.gravity == nil)
        let encoded = StateEncoder.encode(harness.state, rig: harness.rig, plan: harness.engine.plan)
        #expect(encoded["gravity"] == .null)
    }

    @Test func anOverflowingGravityKeepsTheLastGoodOne() throws {
        var harness = try Harness("duo")
        harness.apply(.gravity(Vector3(0, -9.8, 0)))
        #expect(harness.apply(.gravity(Vector3(-1e308, 0, 1e308))).warnings.first?.contains("overflows") == true)
        let encoded = StateEncoder.encode(harness.state, rig: harness.rig, plan: harness.engine.plan)
        #expect(encoded["gravity"] == .array([.double(0), .double(-9.8), .double(0)]))
    }

    @Test func theLargestAcceptedGravityStillEncodesAsNumbers() throws {
        // A finite length needs components below about 1.3e154, far from where rounding to
        // four places would overflow: accepted vectors always print as numbers.
        var harness = try Harness("duo")
        #expect(harness.apply(.gravity(Vector3(1e150, 0, -1e150))).warnings.isEmpty)
        let encoded = StateEncoder.encode(harness.state, rig: harness.rig, plan: harness.engine.plan)
        #expect(encoded["gravity"] == .array([.double(1e150), .double(0), .double(-1e150)]))
    }

    @Test func overflowingAccelerometerReadingsAreDropped() throws {
        var harness = try Harness("convertible")
        let update = harness.apply(.accelerometer(sensor: 0, reading: Vector3(1e300, 1e300, 1e300)))
        #expect(update.warnings.first?.contains("overflows") == true)
        #expect(harness.state.gravity == nil)
    }

    @Test func scenarioGravityThatOverflowsIsAWarningNotANull() throws {
        let rig = try RigPresets.rig("duo")!
        let script = try ScenarioScript(bytes: Array(#"{"steps": [{"gravity": [-1e308, 0, 1e308]}]}"#.utf8), rig: rig)
        var lines: [JSONValue] = []
        ScenarioRunner.run(script) { lines.append($0); return true }
        #expect(lines.count == 1)
        #expect(lines[0]["gravity"] == .null)
        #expect(lines[0]["warnings"] != nil)
    }
}
