import FoldcamCore
import Testing

/// The model database's matcher: DMI values in, a choice and its reasons out (docs/devices.md,
/// "Which model wins").
@Suite struct ModelMatcherTests {
    static func model(_ id: String, _ dmi: [DMIField: String]) -> DeviceModel {
        DeviceModel(id: id, name: id, sources: ["https://example.org/\(id)"], dmi: dmi.mapValues(Glob.init), rig: .preset("convertible", overrides: nil))
    }

    static func candidate(_ id: String, _ dmi: [DMIField: String], _ origin: ModelMatcher.Origin = .shipped, file: String? = nil) -> ModelMatcher.Candidate {
        let name = file ?? "\(id).json"
        return .init(model: model(id, dmi), origin: origin, fileName: name, path: (origin == .local ? "/etc/foldcam/models.d/" : "/usr/share/foldcam/models.d/") + name)
    }

    static let yoga: [DMIField: String] = [.sysVendor: "LENOVO", .productName: "20FES04T1M", .productVersion: "ThinkPad Yoga 260"]

    @Test(arguments: [
        // (machine, candidates, chosen id or nil)
        (yoga, [candidate("yoga", [.sysVendor: "LENOVO", .productName: "20FE*"])], "yoga"),
        (yoga, [candidate("yoga", [.sysVendor: "LENOVO", .productName: "20FF*"])], nil),
        // More fields matched wins, whatever the order or origin.
        (yoga, [candidate("vendor", [.sysVendor: "LENOVO"], .local), candidate("exact", [.sysVendor: "LENOVO", .productVersion: "ThinkPad Yoga 260"])], "exact"),
        // Same fields: /etc beats /usr/share.
        (yoga, [candidate("shipped", [.sysVendor: "LENOVO"]), candidate("local", [.sysVendor: "LENOVO"], .local)], "local"),
        // Same fields and origin: the file name that sorts last.
        (yoga, [candidate("b", [.sysVendor: "LENOVO"], file: "50-b.json"), candidate("a", [.sysVendor: "LENOVO"], file: "99-a.json")], "a"),
        // A field the machine does not report never matches.
        (yoga, [candidate("sku", [.sysVendor: "LENOVO", .productSKU: "*"])], nil),
        ([:], [candidate("any", [.sysVendor: "LENOVO"])], nil),
    ] as [([DMIField: String], [ModelMatcher.Candidate], String?)])
    func precedence(machine: [DMIField: String], candidates: [ModelMatcher.Candidate], chosen: String?) {
        #expect(ModelMatcher.choose(dmi: machine, among: candidates).chosen?.model.id == chosen)
    }

    @Test func aLocalFileReplacesTheShippedOneOfTheSameName() {
        // The shipped file matches more fields, but the local one of the same name replaces it.
        let choice = ModelMatcher.choose(dmi: Self.yoga, among: [
            Self.candidate("yoga", [.sysVendor: "LENOVO", .productName: "20FE*", .productVersion: "ThinkPad Yoga 260"]),
            Self.candidate("yoga", [.sysVendor: "LENOVO"], .local),
        ])
        #expect(choice.chosen?.origin == .local)
        #expect(choice.notChosen.map(\.reason) == ["replaced by the local file of the same name in /etc/foldcam/models.d"])
    }

    @Test func theChoiceSaysWhichFieldsMatchedAndWhyTheOthersLost() {
        let choice = ModelMatcher.choose(dmi: Self.yoga, among: [
            Self.candidate("yoga", [.sysVendor: "LENOVO", .productName: "20FE*"]),
            Self.candidate("vendor", [.sysVendor: "LENOVO"]),
            Self.candidate("other", [.sysVendor: "LENOVO", .productName: "82YQ*"]),
            Self.candidate("sku", [.productSKU: "X"]),
        ])
        #expect(choice.chosen?.model.id == "yoga")
        #expect(choice.matched.map(\.field) == [.sysVendor, .productName])
        #expect(choice.matched.map(\.value) == ["LENOVO", "20FES04T1M"])
        #expect(choice.notChosen.map(\.reason) == [
            #"product_name "20FES04T1M" does not match "82YQ*""#,
            #"product_sku "X": this machine reports no product_sku"#,
            "matches too, but yoga wins: it matches 2 DMI fields, this one 1",
        ])
    }

    @Test(arguments: [
        ("20FE*", "20FES04T1M", true), ("20FE*", "20FF", false), ("*960QHA*", "960QHA-KG2FR", true),
        ("a?c", "abc", true), ("a?c", "ac", false), ("*", "", true), ("a*b*c", "aXbYbZc", true), ("a*b*c", "aXbYbZ", false),
        ("ThinkPad Yoga 260", "ThinkPad Yoga 260", true), ("lenovo", "LENOVO", false),
    ])
    func globs(pattern: String, text: String, matches: Bool) {
        #expect(Glob(pattern).matches(text) == matches)
    }
}
