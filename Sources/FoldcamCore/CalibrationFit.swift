/// `foldcamctl calibrate`'s arithmetic (pure): from the raw readings recorded while the user held
/// the rig at known angles, the hinge correction (`sign × reading + offset`) and whether the
/// accelerometer pair's labels are swapped. It refuses, saying why, rather than guess.
public enum CalibrationFit {
    /// A hinge fit whose worst residual is larger than this is refused: the sensor does not
    /// report this hinge's angle, or the rig was not folded as asked.
    public static let largestResidual = 10.0
    /// Within this many degrees an accelerometer angle agrees with the step's angle (the plausibility
    /// checks' agreement).
    public static let agreement = 20.0

    /// One step: the angle the user was asked to hold, and what the sensor read there (degrees).
    public struct Recorded: Sendable, Equatable {
        public var target: Double
        public var reading: Double

        public init(target: Double, reading: Double) {
            self.target = target
            self.reading = reading
        }
    }

    public struct HingeFit: Sendable, Equatable {
        public var correction: HingeCorrection
        /// The largest |target − corrected reading| over the steps, degrees.
        public var worstResidual: Double
    }

    /// The sign (1 or −1) and whole-degree offset that best turn the readings into the targets:
    /// for each sign the offset is the mean residual; the sign with the smaller worst residual wins.
    public static func hinge(_ steps: [Recorded]) -> Result<HingeFit, CorrectionError> {
        guard steps.count >= 2 else {
            return .failure(CorrectionError(message: "a hinge fit needs readings at two angles at least (got \(steps.count))"))
        }
        let fits = [1, -1].map { sign -> HingeFit in
            let residuals = steps.map { $0.target - Double(sign) * $0.reading }
            let offset = (residuals.reduce(0, +) / Double(residuals.count)).rounded()
            let worst = residuals.map { abs($0 - offset) }.max() ?? 0
            return HingeFit(correction: HingeCorrection(sign: sign, offset: offset == 0 ? 0 : offset), worstResidual: worst)
        }
        let best = fits[0].worstResidual <= fits[1].worstResidual ? fits[0] : fits[1]
        let readings = steps.map { "\(numberText($0.reading.rounded()))° at \(numberText($0.target))°" }.joined(separator: ", ")
        guard best.worstResidual <= largestResidual else {
            return .failure(CorrectionError(message: "the hinge sensor's readings (\(readings)) fit no sign and offset: off by \(numberText(fits[0].worstResidual.rounded()))° with sign 1, \(numberText(fits[1].worstResidual.rounded()))° with sign -1 (at most \(numberText(largestResidual))° allowed); either the sensor does not measure this hinge or the rig was not held as asked: run calibrate again"))
        }
        guard (-360...360).contains(best.correction.offset) else {
            return .failure(CorrectionError(message: "the hinge sensor's readings (\(readings)) need an offset of \(numberText(best.correction.offset))°, outside -360...360: its scale is not degrees; write the model's correction by hand (docs/devices.md)"))
        }
        return .success(best)
    }

    /// Whether the accelerometer pair's base/display labels are swapped: swapped labels give the
    /// hinge angle mirrored (360° − the angle). Only steps away from 0°, 180° and 360° tell (there
    /// the angle and its mirror are alike); nil when no step tells. Refused when the steps
    /// disagree or fit neither.
    public static func swappedLabels(_ steps: [Recorded]) -> Result<Bool?, CorrectionError> {
        let telling = steps.filter { step in [0.0, 180, 360].allSatisfy { abs(step.target - $0) >= agreement * 1.5 } }
        guard !telling.isEmpty else { return .success(nil) }
        let direct = telling.allSatisfy { abs($0.reading - $0.target) <= agreement }
        let mirrored = telling.allSatisfy { abs(360 - $0.reading - $0.target) <= agreement }
        if direct { return .success(false) }
        if mirrored { return .success(true) }
        let readings = telling.map { "\(numberText($0.reading.rounded()))° at \(numberText($0.target))°" }.joined(separator: ", ")
        return .failure(CorrectionError(message: "the accelerometers give \(readings): neither their labels as they are nor swapped fit (within \(numberText(agreement))°); check their mount matrices, or the rig was not held as asked: run calibrate again"))
    }
}
