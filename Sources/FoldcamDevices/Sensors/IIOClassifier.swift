import FoldcamCore

/// What an IIO device is to foldcam, from udev properties and sysfs attribute names alone (pure):
/// a hinge-angle sensor (`FOLDCAM_HINGE=<hinge id>`, or named `hinge` on a one-hinge rig) or an
/// accelerometer placed by `ACCEL_LOCATION` (udev's default is `display`) with its mount matrix
/// (`ACCEL_MOUNT_MATRIX` from hwdb wins over the kernel's `mount_matrix` attributes).
public enum IIOClassifier {
    public enum Outcome: Sendable, Equatable {
        case hinge(hinge: Int, matchedBy: String)
        case accelerometer(sensor: Int, location: String, matrix: MountMatrix, matrixSource: String)
        case skipped(reason: String)
    }

    /// Attributes the classifier needs copied into the record (presence is what counts).
    public static let attributes = ["name", "in_angl0_raw", "in_accel_x_raw", "in_accel_mount_matrix", "mount_matrix", "location"]

    public static func classify(_ record: UdevRecord, rig: Rig) -> Outcome {
        let properties = record.properties
        let attributes = record.attributes
        let name = attributes["name"] ?? ""
        if let id = properties["FOLDCAM_HINGE"] ?? (name == "hinge" ? "" : nil) {
            guard attributes["in_angl0_raw"] != nil else { return .skipped(reason: "a hinge sensor without in_angl0_raw") }
            if !id.isEmpty {
                guard let hinge = rig.hingeIndex(id) else {
                    return .skipped(reason: "FOLDCAM_HINGE=\(id) names no hinge of rig \(rig.id) (hinges: \(rig.hinges.map(\.id).joined(separator: ", ")))")
                }
                return corrected(.hinge(hinge: hinge, matchedBy: properties[DeviceModel.matchProperty] ?? "udev FOLDCAM_HINGE=\(id)"), properties)
            }
            guard rig.hinges.count == 1 else {
                return .skipped(reason: "an IIO device named \"hinge\", but rig \(rig.id) has \(rig.hinges.count) hinges: say which with FOLDCAM_HINGE=<hinge id> in a udev rule")
            }
            return corrected(.hinge(hinge: 0, matchedBy: "IIO name \"hinge\" (the rig's only hinge, \(rig.hinges[0].id))"), properties)
        }
        if attributes["in_accel_x_raw"] != nil {
            let location = properties["ACCEL_LOCATION"] ?? "display"
            guard rig.accelerometerIndex(location) != nil else {
                return .skipped(reason: "an accelerometer at ACCEL_LOCATION=\(location), which rig \(rig.id) does not place (accelerometers: \(rig.accelerometers.isEmpty ? "none" : rig.accelerometers.map(\.id).joined(separator: ", ")))")
            }
            let sensor: Int
            switch AccelerometerSwap.accelerometer(labelled: location, swapped: properties[AccelerometerSwap.property] == "1", among: rig.accelerometers.map(\.id)) {
            case let .success(index): sensor = index
            case let .failure(error): return .skipped(reason: error.message)
            }
            for (source, text) in [(properties[DeviceModel.matrixProperty] ?? "udev ACCEL_MOUNT_MATRIX", properties["ACCEL_MOUNT_MATRIX"]), ("sysfs in_accel_mount_matrix", attributes["in_accel_mount_matrix"]), ("sysfs mount_matrix", attributes["mount_matrix"])] {
                guard let text else { continue }
                guard let matrix = MountMatrix(parsing: text) else {
                    return .skipped(reason: "\(source) \"\(text)\" is not a 3x3 matrix (\"x1, y1, z1; x2, y2, z2; x3, y3, z3\")")
                }
                return .accelerometer(sensor: sensor, location: location, matrix: matrix, matrixSource: source)
            }
            return .accelerometer(sensor: sensor, location: location, matrix: .identity, matrixSource: "identity (no mount matrix given)")
        }
        return .skipped(reason: "neither a hinge sensor nor an accelerometer")
    }

    /// A hinge with a sign or offset correction says so where it says how it matched (the log
    /// line and `--probe`); a correction that is not one skips the sensor, naming the value.
    private static func corrected(_ hinge: Outcome, _ properties: [String: String]) -> Outcome {
        guard case let .hinge(index, matchedBy) = hinge else { return hinge }
        switch HingeCorrection.parse(properties) {
        case let .success(correction) where correction.isNone: return hinge
        case let .success(correction): return .hinge(hinge: index, matchedBy: "\(matchedBy), corrected by \(correction.summary)")
        case let .failure(error): return .skipped(reason: "\(error.message); not using this hinge sensor")
        }
    }
}
