/// A model's sensor corrections, carried to the sensor layer as udev-style properties (as a
/// local udev rule could set them too), and read back with a clear refusal of bad values.
/// - `FOLDCAM_HINGE_SIGN` (1 or -1) and `FOLDCAM_HINGE_OFFSET` (degrees, -360...360): the
///   angle foldcam uses is `sign × reading + offset` (a hinge that counts the other way, or from
///   another zero).
/// - `FOLDCAM_ACCEL_SWAP=1`: the accelerometer's location label names the other half of the rig's
///   accelerometer pair.
public struct HingeCorrection: Sendable, Equatable {
    public static let signProperty = "FOLDCAM_HINGE_SIGN"
    public static let offsetProperty = "FOLDCAM_HINGE_OFFSET"
    public static let none = HingeCorrection(sign: 1, offset: 0)

    public var sign: Int
    public var offset: Double

    public init(sign: Int, offset: Double) {
        self.sign = sign
        self.offset = offset
    }

    public init(_ corrections: SensorCorrections) {
        self.init(sign: corrections.sign, offset: corrections.offset)
    }

    public var isNone: Bool { self == .none }

    /// The angle foldcam uses for a sensor reading.
    public func apply(_ degrees: Double) -> Double {
        Double(sign) * degrees + offset
    }

    /// The properties that carry this correction (none for no correction).
    public var properties: [String: String] {
        guard !isNone else { return [:] }
        return [Self.signProperty: String(sign), Self.offsetProperty: numberText(offset)]
    }

    /// For logs and `--probe`: "sign -1, offset 360°".
    public var summary: String {
        "sign \(sign), offset \(numberText(offset))°"
    }

    /// The correction a device's properties give; a value that is not one is refused with what to
    /// write instead.
    public static func parse(_ properties: [String: String]) -> Result<HingeCorrection, CorrectionError> {
        var correction = HingeCorrection.none
        if let text = properties[signProperty] {
            guard let sign = Int(text), sign == 1 || sign == -1 else {
                return .failure(CorrectionError(message: "\(signProperty)=\(ClientText.quoted(text)) is not 1 or -1"))
            }
            correction.sign = sign
        }
        if let text = properties[offsetProperty] {
            guard let offset = Double(text), offset.isFinite, (-360...360).contains(offset) else {
                return .failure(CorrectionError(message: "\(offsetProperty)=\(ClientText.quoted(text)) is not a number of degrees from -360 to 360"))
            }
            correction.offset = offset
        }
        return .success(correction)
    }
}

public struct CorrectionError: Error, Sendable, Equatable {
    public var message: String

    public init(message: String) {
        self.message = message
    }
}

/// A model's `swapLocation` correction for an accelerometer, as a property.
public enum AccelerometerSwap {
    public static let property = "FOLDCAM_ACCEL_SWAP"

    /// The rig accelerometer a sensor labelled `location` really is: the other member of the
    /// rig's pair when the swap is set. Nil (with why) when the rig has no pair to swap within.
    public static func accelerometer(labelled location: String, swapped: Bool, among ids: [String]) -> Result<Int, CorrectionError> {
        guard let labelled = ids.firstIndex(of: location) else {
            return .failure(CorrectionError(message: "ACCEL_LOCATION=\(ClientText.quoted(location)) is not one of the rig's accelerometers (\(ids.isEmpty ? "none" : ids.joined(separator: ", ")))"))
        }
        guard swapped else { return .success(labelled) }
        guard ids.count == 2 else {
            return .failure(CorrectionError(message: "\(property)=1 swaps the labels of an accelerometer pair, but the rig has \(ids.count) accelerometers; name the sensor's rig accelerometer in the model instead"))
        }
        return .success(1 - labelled)
    }
}
