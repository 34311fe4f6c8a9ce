import FoldcamCore
import Foundation
import Testing

/// Model files: decoding with path-named errors, the rig from a preset and its overrides, and
/// the properties a model's device entries add to udev devices.
@Suite struct DeviceModelTests {
    static let yoga = #"""
    {
      "name": "Yoga", "source": "https://example.org/yoga",
      "match": {"dmi": {"sys_vendor": "LENOVO", "product_name": "20FE*"}},
      "rig": {"preset": "convertible", "overrides": {"id": "yoga", "cameras": [{"id": "world", "remove": true}],
              "accelerometers": [{"id": "display", "remove": true}, {"id": "base", "remove": true}], "switches": {"tabletMode": null}}},
      "devices": {
        "cameras": [{"rigCamera": "user", "usb": "04F2:B5C1"}],
        "sensors": [{"hinge": "lid", "iioName": "hinge"},
                    {"accelerometer": "base", "iioName": "accel_3d", "corrections": {"mountMatrix": [-1, 0, 0, 0, 0, -1, 0, -1, 0]}}],
        "switches": [{"switch": "tabletMode", "trust": "hint"}]
      }
    }
    """#

    func errors(_ text: String) -> [String] {
        do {
            let model = try DeviceModelDecoder.decode(json: text, id: "m")
            _ = try model.resolvedRig()
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func aPresetWithOverrides() throws {
        let model = try DeviceModelDecoder.decode(json: Self.yoga, id: "yoga")
        let rig = try model.resolvedRig()
        #expect(rig.id == "yoga")
        #expect(rig.cameras.map(\.id) == ["user"])
        #expect(rig.accelerometers.isEmpty)
        #expect(model.cameras.first?.usb == "04f2:b5c1")
        #expect(model.switches.first?.trust == .hint)
    }

    @Test(arguments: [
        (#""product_name": "20FE*""#, #""prodcut_name": "20FE*""#, #"match.dmi.prodcut_name: unknown DMI field; did you mean "product_name"? (expected one of: sys_vendor, product_name, product_version, product_family, product_sku, board_name)"#),
        (#""sys_vendor": "LENOVO", "product_name": "20FE*""#, #""sys_vendor": "*""#, #"match.dmi.sys_vendor: "*" matches every machine: give the value the machine reports, or leave the field out"#),
        (#""preset": "convertible""#, #""preset": "convertibel""#, #"rig.preset: unknown preset "convertibel"; did you mean "convertible"? (presets: convertible, dual-screen, duo, kiosk, trifold)"#),
        (#""rigCamera": "user""#, #""rigCamera": "usr""#, #"devices.cameras[0].rigCamera: names no camera of the model's rig "usr"; did you mean "user"? (cameras: user)"#),
        (#""usb": "04F2:B5C1""#, #""usb": "04f2-b5c1""#, #"devices.cameras[0].usb: "04f2-b5c1" is not a USB id (expected vendor:product in hex, e.g. "04f2:b5c1")"#),
        (#""trust": "hint""#, #""trust": "hnit""#, #"devices.switches[0].trust: unknown value "hnit" (expected one of: override, hint, ignore)"#),
        (#""source": "https://example.org/yoga""#, #""source": []"#, "source: must cite at least one public source (a URL with its commit or issue)"),
        (#""remove": true}], "switches""#, #""remove": true}], "postures": [], "switches""#, "rig (preset convertible with its overrides).postures: must not be empty"),
    ])
    func errorsNameThePath(old: String, new: String, expected: String) {
        #expect(Self.yoga.contains(old))
        let found = errors(Self.yoga.replacingOccurrences(of: old, with: new))
        #expect(found.contains { $0.hasPrefix(expected) }, "\(found)")
    }

    @Test func deviceEntriesAddTheirUdevProperties() throws {
        let model = try DeviceModelDecoder.decode(json: Self.yoga, id: "yoga")
        let camera = model.match(subsystem: "video4linux", properties: ["ID_VENDOR_ID": "04f2", "ID_MODEL_ID": "b5c1"], attributes: ["name": "Integrated Camera"])
        #expect(camera?.properties == ["FOLDCAM_CAMERA": "user", DeviceModel.matchProperty: "model yoga devices.cameras[0] (usb 04f2:b5c1)"])
        // A local udev rule's tag is kept: the model adds nothing that would say otherwise.
        let tagged = model.match(subsystem: "video4linux", properties: ["ID_VENDOR_ID": "04f2", "ID_MODEL_ID": "b5c1", "FOLDCAM_CAMERA": "world"], attributes: [:])
        #expect(tagged?.properties == [:])
        #expect(model.match(subsystem: "video4linux", properties: ["ID_VENDOR_ID": "04f2", "ID_MODEL_ID": "b7c5"], attributes: [:]) == nil)
        let accel = model.match(subsystem: "iio", properties: ["ACCEL_LOCATION": "display"], attributes: ["name": "accel_3d"])
        #expect(accel?.properties["ACCEL_LOCATION"] == "base")
        #expect(accel?.properties["ACCEL_MOUNT_MATRIX"] == "-1, 0, 0; 0, 0, -1; 0, -1, 0")
        #expect(model.match(subsystem: "iio", properties: [:], attributes: ["name": "hinge"])?.properties["FOLDCAM_HINGE"] == "lid")
        #expect(model.match(subsystem: "iio", properties: [:], attributes: ["name": "gyro_3d"]) == nil)
    }

    @Test func aCameraLinkedToItsSensorSubdevice() throws {
        let text = Self.yoga.replacingOccurrences(of: #""usb": "04F2:B5C1""#, with: #""v4l2Name": "unicam-image", "subdevice": "imx219*""#)
        let model = try DeviceModelDecoder.decode(json: text, id: "yoga")
        #expect(model.cameras.first?.subdevice == Glob("imx219*"))
        let match = model.match(subsystem: "video4linux", properties: [:], attributes: ["name": "unicam-image"])
        #expect(match?.properties[DeviceModel.subdeviceProperty] == "imx219*")
        #expect(match?.properties["FOLDCAM_CAMERA"] == "user")
    }

    @Test func mergingOverrides() throws {
        let base = try JSONParser.parse(#"{"a": 1, "list": [{"id": "x", "v": 1}, {"id": "y"}], "plain": [1, 2], "gone": true}"#)
        let patch = try JSONParser.parse(#"{"a": 2, "list": [{"id": "x", "v": 2}, {"id": "y", "remove": true}, {"id": "z"}], "plain": [3], "gone": null}"#)
        #expect(JSONMerge.merge(base, patch) == (try JSONParser.parse(#"{"a": 2, "list": [{"id": "x", "v": 2}, {"id": "z"}], "plain": [3]}"#)))
    }

    /// Every shipped model decodes, cites sources and resolves to a valid rig whose ids its
    /// device entries name.
    @Test func everyShippedModelIsValid() throws {
        let directory = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/models.d"
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count >= 9)
        for name in names {
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            let model = try DeviceModelDecoder.decode(json: text, id: String(name.dropLast(5)))
            #expect(!model.sources.isEmpty && model.sources.allSatisfy { $0.hasPrefix("https://") }, "\(name)")
            #expect(!model.dmi.isEmpty, "\(name)")
            let rig = try model.resolvedRig()
            #expect(rig.id == model.id, "\(name): the rig's id is the model's")
        }
    }
}
