import FoldcamCore

/// Turns `ID=DEG` settings (as typed after `--hinge`) into one angle per hinge. Unnamed hinges
/// keep their declared initial angle. Strict, unlike the engine's sensor path (which clamps
/// 1° of noise): a person asking for an impossible pose has made a mistake worth reporting.
public enum HingeSettings {
    public struct InvalidSetting: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    public static func angles(for rig: Rig, settings: [String]) throws(InvalidSetting) -> [Double] {
        var angles = rig.hinges.map(\.initial)
        var seen: Set<Int> = []
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw InvalidSetting(description: "--hinge \(setting): expected ID=DEGREES, e.g. \(example(rig))")
            }
            let id = String(parts[0])
            guard let index = rig.hingeIndex(id) else {
                let known = rig.hinges.isEmpty
                    ? "rig \(rig.id) has no hinges"
                    : "hinges of rig \(rig.id): \(rig.hinges.map(\.id).joined(separator: ", "))"
                throw InvalidSetting(description: "--hinge \(setting): unknown hinge \"\(id)\" (\(known))")
            }
            guard let degrees = Double(parts[1]), degrees.isFinite else {
                throw InvalidSetting(description: "--hinge \(setting): \"\(parts[1])\" is not a number of degrees")
            }
            let hinge = rig.hinges[index]
            guard hinge.contains(degrees) else {
                throw InvalidSetting(description: "--hinge \(setting): \(NumberText.degrees(degrees)) is outside hinge \(id)'s range [\(NumberText.compact(hinge.minimum)), \(NumberText.compact(hinge.maximum))]")
            }
            guard seen.insert(index).inserted else {
                throw InvalidSetting(description: "--hinge \(setting): hinge \(id) is set twice")
            }
            angles[index] = degrees
        }
        return angles
    }

    private static func example(_ rig: Rig) -> String {
        guard let hinge = rig.hinges.first else { return "(this rig has no hinges)" }
        return "\(hinge.id)=\(NumberText.compact(((hinge.minimum + hinge.maximum) / 2).rounded()))"
    }
}
