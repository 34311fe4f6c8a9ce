import FoldcamTestSupport
import Testing

/// The `kiosk` example the package installs under /usr/share/foldcam/examples/ (docs/kiosk.md):
/// its configuration passes `foldcamd --check-config`, and the modprobe example creates the
/// loopbacks it names.
@Suite struct KioskExampleTests {
    static let examples = DocsTests.repository + "/packaging/examples"

    @Test func theKioskConfigurationIsValidAndItsLoopbacksAreTheModprobeExamples() throws {
        let directory = try TemporaryDirectory()
        let outcome = try CheckConfigTests.check(["--config", Self.examples + "/kiosk.json"], in: directory)
        #expect(outcome.code == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("configuration valid: rig kiosk"), "\(outcome.stdout)")
        let config = readTextFile(Self.examples + "/kiosk.json")
        let modprobe = readTextFile(Self.examples + "/kiosk-v4l2loopback.conf")
        for (id, label) in [("front", "foldcam front"), ("rear", "foldcam rear")] {
            #expect(config.contains(#"{"id": "\#(id)", "follows": "\#(id)", "loopbackLabel": "\#(label)"}"#), "\(config)")
            #expect(modprobe.contains(#""\#(label)""#), "\(modprobe)")
        }
        #expect(modprobe.contains("devices=2"))
    }
}
