import FoldcamCore
import Testing

/// A model's sign, offset and swapLocation corrections: the properties its entries add, how they
/// read back, and the rig checks that refuse a swap with no pair to swap within.
@Suite struct SensorCorrectionTests {
    static let model = #"""
    {
      "name": "Reversed", "source": "https://example.org/reversed",
      "match": {"dmi": {"sys_vendor": "ACME"}},
      "rig": {"preset": "convertible"},
      "devices": {
        "sensors": [{"hinge": "lid", "iioName": "hinge", "corrections": {"sign": -1, "offset": 360}},
                    {"accelerometer": "display", "location": "display", "corrections": {"swapLocation": true}}]
      }
    }
    """#

    @Test func theModelsCorrectionsBecomeProperties() throws {
        let model = try DeviceModelDecoder.decode(json: Self.model, id: "reversed")
        _ = try model.resolvedRig()
        let hinge = try #require(model.match(subsystem: "iio", properties: [:], attributes: ["name": "hinge"]))
        #expect(hinge.properties["FOLDCAM_HINGE"] == "lid")
        #expect(hinge.properties[HingeCorrection.signProperty] == "-1")
        #expect(hinge.properties[HingeCorrection.offsetProperty] == "360")
        // A local rule that names the hinge keeps its name; the model still corrects the reading.
        let named = try #require(model.match(subsystem: "iio", properties: ["FOLDCAM_HINGE": "lid"], attributes: ["name": "hinge"]))
        #expect(named.properties["FOLDCAM_HINGE"] == nil)
        #expect(named.properties[HingeCorrection.signProperty] == "-1")
        let accelerometer = try #require(model.match(subsystem: "iio", properties: ["ACCEL_LOCATION": "display"], attributes: ["name": "accel_3d"]))
        #expect(accelerometer.properties[AccelerometerSwap.property] == "1")
        #expect(accelerometer.properties["ACCEL_LOCATION"] == "display")
    }

    @Test func anUncorrectedSensorAddsNoCorrection() throws {
        let plain = Self.model.replacingOccurrences(of: #", "corrections": {"sign": -1, "offset": 360}"#, with: "")
        let model = try DeviceModelDecoder.decode(json: plain, id: "plain")
        let hinge = try #require(model.match(subsystem: "iio", properties: [:], attributes: ["name": "hinge"]))
        #expect(hinge.properties[HingeCorrection.signProperty] == nil)
        #expect(hinge.properties[HingeCorrection.offsetProperty] == nil)
    }

    @Test(arguments: [
        ([String: String](), 1, 0.0, 30.0, 30.0),
        (["FOLDCAM_HINGE_SIGN": "-1", "FOLDCAM_HINGE_OFFSET": "360"], -1, 360.0, 30.0, 330.0),
        (["FOLDCAM_HINGE_OFFSET": "-12.5"], 1, -12.5, 100.0, 87.5),
    ])
    func correctionsReadBackAndApply(properties: [String: String], sign: Int, offset: Double, reading: Double, used: Double) throws {
        let correction = try HingeCorrection.parse(properties).get()
        #expect(correction == HingeCorrection(sign: sign, offset: offset))
        #expect(correction.apply(reading) == used)
    }

    @Test(arguments: [
        (["FOLDCAM_HINGE_SIGN": "2"], #"FOLDCAM_HINGE_SIGN="2" is not 1 or -1"#),
        (["FOLDCAM_HINGE_OFFSET": "720"], #"FOLDCAM_HINGE_OFFSET="720" is not a number of degrees from -360 to 360"#),
        (["FOLDCAM_HINGE_OFFSET": "nan"], #"FOLDCAM_HINGE_OFFSET="nan" is not a number of degrees from -360 to 360"#),
    ])
    func badCorrectionsAreRefusedNamingTheValue(properties: [String: String], message: String) {
        #expect(HingeCorrection.parse(properties) == .failure(CorrectionError(message: message)))
    }

    @Test func aSwapMapsALabelToTheOtherMemberOfThePair() {
        let pair = ["base", "display"]
        #expect(AccelerometerSwap.accelerometer(labelled: "display", swapped: false, among: pair) == .success(1))
        #expect(AccelerometerSwap.accelerometer(labelled: "display", swapped: true, among: pair) == .success(0))
        #expect(AccelerometerSwap.accelerometer(labelled: "base", swapped: true, among: pair) == .success(1))
        guard case .failure = AccelerometerSwap.accelerometer(labelled: "display", swapped: true, among: ["display"]) else {
            Issue.record("a lone accelerometer has nothing to swap with")
            return
        }
    }

    @Test func aModelThatSwapsWithoutAPairIsRefused() throws {
        let lone = Self.model.replacingOccurrences(of: #""rig": {"preset": "convertible"}"#,
                                                   with: #""rig": {"preset": "convertible", "overrides": {"accelerometers": [{"id": "base", "remove": true}, {"id": "display", "remove": true}]}}"#)
        #expect(lone != Self.model)
        let model = try DeviceModelDecoder.decode(json: lone, id: "lone")
        #expect(throws: DocumentErrors.self) { try model.resolvedRig() }
        do {
            _ = try model.resolvedRig()
        } catch {
            let found = error.errors.map(\.description)
            #expect(found.contains { $0.hasPrefix("devices.sensors[1].corrections.swapLocation: swaps the labels of an accelerometer pair, but the model's rig has 0 accelerometers") }, "\(found)")
        }
    }
}
