import FoldcamCore
import Testing

/// `containsText` and `replacingFirstText`: the substring search foldcamd's modules use instead
/// of _StringProcessing's.
@Suite struct TextSearchTests {
    @Test func findsANeedleAnywhereAndOnlyWhole() {
        let text = "probe: this machine reports no DMI"
        #expect(text.containsText("this machine reports no"))
        #expect(text.containsText("probe"))
        #expect(text.containsText("DMI"))
        #expect(text.containsText(""))
        #expect(!text.containsText("DMIx"))
        #expect(!text.containsText("machines"))
        #expect(!"ab".containsText("abc"))
        #expect("aaab".containsText("aab"), "a partial match first does not hide the real one")
        #expect("température".containsText("ratu"))
        #expect(text.dropFirst(7).containsText("this"), "substrings too")
    }

    @Test func replacesTheFirstOccurrenceOnly() {
        #expect("a-b-c".replacingFirstText("-", with: "+") == "a+b-c")
        #expect("using the defaults (rig duo, x)".replacingFirstText("(rig duo,", with: "(rig book from model m,") == "using the defaults (rig book from model m, x)")
        #expect("nothing here".replacingFirstText("absent", with: "x") == "nothing here")
        #expect("é-é".replacingFirstText("é", with: "e") == "e-é")
    }
}
