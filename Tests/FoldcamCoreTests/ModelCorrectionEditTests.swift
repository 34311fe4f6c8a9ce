import FoldcamCore
import Testing

/// A calibration's corrections merged into a model file: only the calibrated entries' corrections
/// change, a sensor no entry matched gets one, the defaults are written as no key, and the result
/// still decodes with the corrections in it.
@Suite struct ModelCorrectionEditTests {
    static let model = #"""
    {
      "name": "Yoga", "source": "https://example.org/yoga",
      "match": {"dmi": {"sys_vendor": "LENOVO"}},
      "rig": {"preset": "convertible"},
      "devices": {
        "cameras": [{"rigCamera": "user", "usb": "04f2:b5c1"}],
        "sensors": [{"hinge": "lid", "iioName": "hinge"},
                    {"accelerometer": "base", "iioName": "accel_3d", "corrections": {"mountMatrix": [1, 0, 0, 0, 1, 0, 0, 0, 1]}}]
      }
    }
    """#

    @Test func aHingeEntryGetsSignAndOffsetAndNothingElseChanges() throws {
        let original = try JSONParser.parse(Self.model)
        let change = ModelCorrectionEdit.SensorChange.hinge(entry: 0, newEntry: .null, HingeCorrection(sign: -1, offset: 360))
        let (edited, changed) = ModelCorrectionEdit.apply([change], to: original)
        #expect(changed == ["devices.sensors[0].corrections.sign: (none) -> -1", "devices.sensors[0].corrections.offset: (none) -> 360"])
        #expect(edited["devices"]?["sensors"] == .array([
            try JSONParser.parse(#"{"hinge": "lid", "iioName": "hinge", "corrections": {"sign": -1, "offset": 360}}"#),
            original["devices"]!["sensors"]!.arrayElement(1)!,
        ]))
        #expect(edited["devices"]?["cameras"] == original["devices"]?["cameras"])
        #expect(edited["match"] == original["match"] && edited["rig"] == original["rig"])
        let decoded = try DeviceModelDecoder.decode(json: edited.prettyText, id: "yoga")
        #expect(decoded.sensors[0].corrections.sign == -1 && decoded.sensors[0].corrections.offset == 360)
        #expect(decoded.sensors[1].corrections.mountMatrix != nil)
    }

    @Test func aRightSensorLosesAnOldCorrection() throws {
        let corrected = try JSONParser.parse(Self.model.replacingOccurrences(of: #"{"hinge": "lid", "iioName": "hinge"}"#,
                                                                               with: #"{"hinge": "lid", "iioName": "hinge", "corrections": {"sign": -1, "offset": 360}}"#))
        let (edited, changed) = ModelCorrectionEdit.apply([.hinge(entry: 0, newEntry: .null, .none)], to: corrected)
        #expect(changed == ["devices.sensors[0].corrections.sign: -1 -> (none)", "devices.sensors[0].corrections.offset: 360 -> (none)"])
        #expect(edited["devices"]?["sensors"]?.arrayElement(0) == (try JSONParser.parse(#"{"hinge": "lid", "iioName": "hinge"}"#)))
    }

    @Test func nothingToChangeLeavesTheModelAsItWas() throws {
        let original = try JSONParser.parse(Self.model)
        let (edited, changed) = ModelCorrectionEdit.apply([.hinge(entry: 0, newEntry: .null, .none), .hinge(entry: nil, newEntry: .null, .none)], to: original)
        #expect(changed.isEmpty)
        #expect(edited == original)
    }

    @Test func sensorsNoEntryMatchedGetNewEntries() throws {
        let bare = try JSONParser.parse(#"{"name": "Bare", "source": "https://example.org/b", "match": {"dmi": {"sys_vendor": "X"}}, "rig": {"preset": "convertible"}}"#)
        let changes: [ModelCorrectionEdit.SensorChange] = [
            .accelerometer(entry: nil, newEntry: .object([("accelerometer", .string("base")), ("location", .string("base"))]), swapped: true),
            .accelerometer(entry: nil, newEntry: .object([("accelerometer", .string("display")), ("location", .string("display"))]), swapped: true),
        ]
        let (edited, changed) = ModelCorrectionEdit.apply(changes, to: bare)
        #expect(changed == [#"devices.sensors[0]: added {"accelerometer":"base","location":"base"}"#, "devices.sensors[0].corrections.swapLocation: (none) -> true",
                            #"devices.sensors[1]: added {"accelerometer":"display","location":"display"}"#, "devices.sensors[1].corrections.swapLocation: (none) -> true"])
        let decoded = try DeviceModelDecoder.decode(json: edited.prettyText, id: "bare")
        #expect(decoded.sensors.map(\.corrections.swapLocation) == [true, true])
        // The swap turns each label into the other's accelerometer.
        let base = try #require(decoded.match(subsystem: "iio", properties: ["ACCEL_LOCATION": "base"], attributes: ["name": "accel_3d"]))
        #expect(base.properties["ACCEL_LOCATION"] == "base" && base.properties[AccelerometerSwap.property] == "1")
    }
}

extension JSONValue {
    func arrayElement(_ index: Int) -> JSONValue? {
        guard case let .array(elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
