import FoldcamIO
import FoldcamTestSupport
import Testing

/// A model file's text reaches the journal in the selection's summary line: escaped, so a name
/// with a newline cannot start a forged log record.
@Suite struct ModelSummaryTests {
    @Test func aModelsNameIsEscapedInTheSummary() throws {
        let models = try TemporaryDirectory(prefix: "foldcam-models")
        let dmi = try TemporaryDirectory(prefix: "foldcam-dmi")
        try dmi.write("sys_vendor", "ACME\n")
        try models.write("acme.json", #"""
        {"name": "Acme\n<3>forged record \u202e", "source": "https://example.org/acme",
         "match": {"dmi": {"sys_vendor": "ACME"}}, "rig": {"preset": "duo"}}
        """#)
        let selection = try ModelSelection.select(directories: [(models.path, .local)], dmiDirectory: dmi.path)
        let summary = selection.summary
        #expect(summary.hasPrefix(#"model acme ("Acme\n<3>forged record \u{202e}"; "#), "\(summary)")
        #expect(!summary.contains("\n"))
        #expect(!summary.unicodeScalars.contains("\u{202e}"))
    }
}
