/// The Prometheus text exposition format (version 0.0.4), which node_exporter's textfile
/// collector reads: `# HELP`, `# TYPE`, then one line per sample. Not OpenMetrics (no `# EOF`,
/// no `_created`), no timestamps. Names and label names are checked, label values and help
/// escaped, so no value can break the file.
public enum PrometheusText {
    public enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    public struct Sample: Sendable, Equatable {
        /// Appended to the family's name: "", "_bucket", "_sum", "_count".
        public var suffix: String
        public var labels: [(String, String)]
        public var value: Double

        public init(suffix: String = "", labels: [(String, String)] = [], value: Double) {
            self.suffix = suffix
            self.labels = labels
            self.value = value
        }

        public static func == (a: Sample, b: Sample) -> Bool {
            a.suffix == b.suffix && a.value == b.value && a.labels.map(\.0) == b.labels.map(\.0) && a.labels.map(\.1) == b.labels.map(\.1)
        }
    }

    public struct Family: Sendable, Equatable {
        public var name: String
        public var help: String
        public var kind: Kind
        public var samples: [Sample]

        public init(name: String, help: String, kind: Kind, samples: [Sample]) {
            self.name = name
            self.help = help
            self.kind = kind
            self.samples = samples
        }

        /// A histogram from per-bucket counts (`bounds` ascending; `total` includes what fell
        /// above the last bound, default none); buckets are made cumulative, +Inf added.
        public static func histogram(name: String, help: String, labels: [(String, String)] = [], bounds: [Double], counts: [Int], total: Int? = nil, sum: Double) -> Family {
            var samples: [Sample] = []
            var cumulative = 0
            for (bound, count) in zip(bounds, counts) {
                cumulative += count
                samples.append(Sample(suffix: "_bucket", labels: labels + [("le", format(bound))], value: Double(cumulative)))
            }
            let total = total ?? counts.reduce(0, +)
            samples.append(Sample(suffix: "_bucket", labels: labels + [("le", "+Inf")], value: Double(total)))
            samples.append(Sample(suffix: "_sum", labels: labels, value: sum))
            samples.append(Sample(suffix: "_count", labels: labels, value: Double(total)))
            return Family(name: name, help: help, kind: .histogram, samples: samples)
        }
    }

    /// The exposition text. Families with the same name are a programming error.
    public static func render(_ families: [Family]) -> String {
        var text = ""
        var seen: Set<String> = []
        for family in families {
            precondition(isValidName(family.name), "metric name \(family.name)")
            precondition(seen.insert(family.name).inserted, "metric \(family.name) rendered twice")
            text += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            text += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                text += family.name + sample.suffix
                if !sample.labels.isEmpty {
                    text += "{" + sample.labels.map { name, value in
                        precondition(isValidLabelName(name), "label name \(name)")
                        return "\(name)=\"\(escapeLabelValue(value))\""
                    }.joined(separator: ",") + "}"
                }
                text += " " + format(sample.value) + "\n"
            }
        }
        return text
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" || first == ":" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == ":" }
    }

    /// `[a-zA-Z_][a-zA-Z0-9_]*`, not starting with `__` (reserved).
    public static func isValidLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_", !name.hasPrefix("__") else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }

    /// Label values escape `\`, `"` and newline.
    public static func escapeLabelValue(_ value: String) -> String { escape(value, quote: true) }

    /// Help text escapes `\` and newline.
    public static func escapeHelp(_ help: String) -> String { escape(help, quote: false) }

    private static func escape(_ text: String, quote: Bool) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\"" where quote: out += "\\\""
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// Integers without a fraction, others in Swift's shortest form; +Inf, -Inf, NaN as
    /// Prometheus spells them.
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
