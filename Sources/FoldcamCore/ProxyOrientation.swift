/// iio-sensor-proxy's `AccelerometerOrientation` (net.hadess.SensorProxy): the display
/// accelerometer's reading cut to a quarter turn. Where the proxy holds the sensor and raw
/// reads are refused, it is all foldcam can learn of gravity: a hint for capture rotation only,
/// never for a hinge angle (a quarter-turn vector would fake one).
public enum ProxyOrientation: String, Sendable, Equatable, CaseIterable {
    case normal
    case bottomUp = "bottom-up"
    case leftUp = "left-up"
    case rightUp = "right-up"
    /// Lying flat, or not yet read: no hint.
    case undefined

    /// The proxy's text; anything else is refused with the nearest valid value.
    public init(parsing text: String) throws(PathError) {
        guard let value = ProxyOrientation(rawValue: text) else {
            let names = Self.allCases.map(\.rawValue)
            throw PathError(path: "AccelerometerOrientation", message: "\(ClientText.quoted(text)) is not one of \(names.joined(separator: ", "))\(NearestName.hint(for: text, among: names))")
        }
        self = value
    }

    /// Gravity's direction in the display panel's frame (x right, y up, z out of the screen;
    /// the hwdb convention foldcam's accelerometer readings follow), unit length; nil for
    /// `undefined`. The inverse of the proxy's own cut (src/orientation.c in
    /// gitlab.freedesktop.org/hadess/iio-sensor-proxy): x > 0 reads left-up, y > 0 bottom-up,
    /// y < 0 normal, x < 0 right-up.
    public var gravity: Vector3? {
        switch self {
        case .normal: return Vector3(0, -1, 0)
        case .bottomUp: return Vector3(0, 1, 0)
        case .leftUp: return Vector3(1, 0, 0)
        case .rightUp: return Vector3(-1, 0, 0)
        case .undefined: return nil
        }
    }

    /// The proxy's cut of a panel-frame reading, as iio-sensor-proxy makes it: a side is up when
    /// gravity leans more than `thresholdDegrees` towards it out of the other two axes (the
    /// proxy uses 35°), portrait checked first; nil-length readings are `undefined`.
    public static func of(_ reading: Vector3, thresholdDegrees: Double = 35) -> ProxyOrientation {
        func lean(_ along: Double, _ a: Double, _ b: Double) -> Double {
            Trig.degrees(Trig.atan2(along, (a * a + b * b).squareRoot()))
        }
        let portrait = lean(reading.x, reading.y, reading.z)
        if abs(portrait) > thresholdDegrees { return portrait > 0 ? .leftUp : .rightUp }
        let landscape = lean(reading.y, reading.x, reading.z)
        if abs(landscape) > thresholdDegrees { return landscape > 0 ? .bottomUp : .normal }
        return .undefined
    }
}
