/// What a model says about one udev device: the properties it adds (as a udev rule would) and
/// which entry of the model matched, for `--probe`.
public struct ModelDeviceMatch: Sendable, Equatable {
    /// The model file's path to the entry, e.g. `devices.cameras[0]`.
    public var entry: String
    /// How it matched, e.g. `usb 04f2:b5c1` or `iioName "hinge"`.
    public var matchedBy: String
    public var properties: [String: String]
}

extension DeviceModel {
    /// The property that carries a model match's provenance to the classifiers and `--probe`.
    public static let matchProperty = "FOLDCAM_MODEL_MATCH"
    /// A glob over the sub-device name whose mounting controls hold for this capture node.
    public static let subdeviceProperty = "FOLDCAM_SUBDEVICE"
    /// Set with ACCEL_MOUNT_MATRIX when the model's correction supplied it.
    public static let matrixProperty = "FOLDCAM_MODEL_MATRIX"

    /// The model's entry for a udev device given as plain values, or nil. Properties udev
    /// already set from a local rule (FOLDCAM_CAMERA, FOLDCAM_HINGE) are kept: a rule written
    /// for this machine beats the database. A sensor's location and mount matrix from the model
    /// replace hwdb's, since correcting those is what a model is for.
    public func match(subsystem: String, properties: [String: String], attributes: [String: String]) -> ModelDeviceMatch? {
        switch subsystem {
        case "video4linux":
            for (index, camera) in cameras.enumerated() {
                guard let how = Self.cameraMatch(camera, properties, attributes) else { continue }
                let entry = "devices.cameras[\(index)]"
                var added: [String: String] = [:]
                if properties["FOLDCAM_CAMERA"] == nil { added = tagged(["FOLDCAM_CAMERA": camera.rigCamera], entry, how) }
                if let rotation = camera.rotation { added["FOLDCAM_SENSOR_ROTATION"] = String(rotation) }
                if let subdevice = camera.subdevice { added[Self.subdeviceProperty] = subdevice.pattern }
                return ModelDeviceMatch(entry: entry, matchedBy: how, properties: added)
            }
        case "iio":
            for (index, sensor) in sensors.enumerated() {
                guard let how = Self.sensorMatch(sensor, properties, attributes) else { continue }
                let entry = "devices.sensors[\(index)]"
                var added: [String: String] = [:]
                switch sensor.role {
                case let .hinge(id):
                    if properties["FOLDCAM_HINGE"] == nil { added = tagged(["FOLDCAM_HINGE": id], entry, how) }
                    // The model's sign and offset hold whoever named the hinge: correcting the
                    // reading is what a model is for.
                    added.merge(HingeCorrection(sensor.corrections).properties) { _, correction in correction }
                case let .accelerometer(id):
                    added = tagged(["ACCEL_LOCATION": id], entry, how)
                    if sensor.corrections.swapLocation { added[AccelerometerSwap.property] = "1" }
                    if let matrix = sensor.corrections.mountMatrix {
                        added["ACCEL_MOUNT_MATRIX"] = Self.matrixText(matrix)
                        added[Self.matrixProperty] = "model \(self.id) \(entry).corrections.mountMatrix"
                    }
                }
                return ModelDeviceMatch(entry: entry, matchedBy: how, properties: added)
            }
        default:
            break
        }
        return nil
    }

    /// The switch entry a libinput switch device's name matches, with its index.
    public func switchEntry(deviceName: String, kind: ModelSwitch.Kind) -> Int? {
        switches.firstIndex { $0.kind == kind && ($0.deviceName?.matches(deviceName) ?? true) }
    }

    private func tagged(_ added: [String: String], _ entry: String, _ how: String) -> [String: String] {
        var added = added
        added[Self.matchProperty] = "model \(id) \(entry) (\(how))"
        return added
    }

    static func cameraMatch(_ camera: ModelCamera, _ properties: [String: String], _ attributes: [String: String]) -> String? {
        var how: [String] = []
        if let usb = camera.usb {
            guard let vendor = properties["ID_VENDOR_ID"], let product = properties["ID_MODEL_ID"], "\(vendor):\(product)".lowercased() == usb else { return nil }
            how.append("usb \(usb)")
        }
        if let name = camera.v4l2Name {
            guard let card = attributes["name"], name.matches(card) else { return nil }
            how.append("V4L2 name \(ClientText.quoted(name.pattern))")
        }
        // A camera known only by its libcamera id is not a V4L2 node foldcam can match.
        return how.isEmpty ? nil : how.joined(separator: ", ")
    }

    static func sensorMatch(_ sensor: ModelSensor, _ properties: [String: String], _ attributes: [String: String]) -> String? {
        var how: [String] = []
        if let name = sensor.iioName {
            guard let actual = attributes["name"], name.matches(actual) else { return nil }
            how.append("IIO name \(ClientText.quoted(name.pattern))")
        }
        if let location = sensor.location {
            guard let actual = properties["ACCEL_LOCATION"] ?? attributes["location"], actual == location else { return nil }
            how.append("location \(ClientText.quoted(location))")
        }
        return how.isEmpty ? nil : how.joined(separator: ", ")
    }

    /// hwdb's spelling: "1, 0, 0; 0, 1, 0; 0, 0, 1".
    static func matrixText(_ m: [Double]) -> String {
        stride(from: 0, to: 9, by: 3).map { row in (row..<row + 3).map { numberText(m[$0]) }.joined(separator: ", ") }.joined(separator: "; ")
    }
}
