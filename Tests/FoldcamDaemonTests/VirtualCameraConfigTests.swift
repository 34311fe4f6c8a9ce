import FoldcamTestSupport
import Testing

/// `virtualCameras` in the configuration as `foldcamd --check-config` sees it: a follow target
/// that names no display of the rig is refused with the nearest one; two cameras bound to the
/// kiosk's displays are valid.
@Suite struct VirtualCameraConfigTests {
    @Test func twoKioskCamerasAreValidAndAnUnknownDisplayIsNamed() throws {
        let directory = try TemporaryDirectory()
        try directory.write("good.json", #"""
            {"rig": "kiosk", "virtualCameras": [
              {"id": "front", "follows": "front", "loopbackLabel": "foldcam front"},
              {"id": "rear", "follows": "rear", "loopbackLabel": "foldcam rear"}]}
            """#)
        let good = try CheckConfigTests.check(["--config", directory.file("good.json")], in: directory)
        #expect(good.code == 0, "\(good.stderr)")
        #expect(good.stdout.contains("configuration valid: rig kiosk"), "\(good.stdout)")

        try directory.write("typo.json", #"""
            {"rig": "kiosk", "virtualCameras": [{"id": "rear", "follows": "rer", "loopbackLabel": "foldcam rear"}]}
            """#)
        let typo = try CheckConfigTests.check(["--config", directory.file("typo.json")], in: directory)
        #expect(typo.code == 2, "\(typo.stderr)")
        #expect(typo.stderr.contains("virtualCameras[0].follows: rig kiosk has no display \"rer\"; did you mean \"rear\"?"), "\(typo.stderr)")

        try directory.write("both.json", #"{"rig": "kiosk", "loopbackDevice": "/dev/video20", "virtualCameras": [{"id": "a", "loopbackLabel": "x"}]}"#)
        let both = try CheckConfigTests.check(["--config", directory.file("both.json")], in: directory)
        #expect(both.code == 2)
        #expect(both.stderr.contains("loopbackDevice: cannot be combined with virtualCameras"), "\(both.stderr)")
    }
}
