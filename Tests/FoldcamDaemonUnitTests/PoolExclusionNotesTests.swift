@testable import FoldcamDaemon
import FoldcamCapture
import FoldcamCore
import Testing

/// `--check-config` names each camera the virtual camera's pool leaves out, and why (issue 27).
@Suite struct PoolExclusionNotesTests {
    func duo(withCameras extra: String, virtualCamera: String = "{}") throws -> Rig {
        var text = try #require(RigPresets.json("duo"))
        text = text.replacing("  \"cameras\": [\n", with: "  \"cameras\": [\n" + extra)
        text = text.replacing("\"tunables\"", with: "\"virtualCamera\": \(virtualCamera),\n  \"tunables\"")
        return try RigDecoder.decode(json: text)
    }

    static let infrared = #"{"id": "ir", "face": "right.A", "formats": [{"pixelFormats": ["GREY"], "width": 640, "height": 360, "fps": 30}]},"#

    @Test func anInfraredCameraIsNamedWithItsReasonAndThePoolStillHasAFormat() throws {
        let rig = try duo(withCameras: Self.infrared + "\n")
        #expect(ConfigCheck.poolExclusions(rig)
            == ["camera ir is kept out of the virtual camera's pool: infrared: every format it lists is greyscale (GREY); kept out by default (virtualCamera.excludeKinds)"])
        #expect(ConfigCheck.formatProblems(rig).isEmpty)
    }

    @Test func aCameraExcludedByIDIsNamed() throws {
        let rig = try duo(withCameras: "", virtualCamera: #"{"exclude": ["back"]}"#)
        #expect(ConfigCheck.poolExclusions(rig) == ["camera back is kept out of the virtual camera's pool: listed in virtualCamera.exclude"])
    }

    @Test func nothingIsSaidWhenNoCameraIsKeptOut() throws {
        #expect(ConfigCheck.poolExclusions(try RigDecoder.decode(json: try #require(RigPresets.json("duo")))).isEmpty)
    }
}

/// `--check-config` on the issue's UVC webcam (MJPG 1080p, MJPG+YUYV 720p, YUYV 480p) beside an
/// IR camera: no unsupportedFormat, and a note saying which mode was chosen and why (issue 27).
@Suite struct ModeNotesTests {
    @Test func theWebcamPassesAndTheChosenModeIsExplained() throws {
        let rig = try RigDecoder.decode(json: """
            {"id": "laptop", "panels": [{"id": "base"}, {"id": "lid", "parent": "base",
               "hinge": {"id": "lid", "axis": [1, 0, 0], "range": [0, 180], "initial": 110, "edge": "top"}}],
             "displays": [{"id": "screen", "faces": ["lid.A"]}],
             "cameras": [
               {"id": "webcam", "face": "lid.A", "formats": [
                 {"pixelFormats": ["MJPG"], "width": 1920, "height": 1080, "fps": 30},
                 {"pixelFormats": ["MJPG", "YUYV"], "width": 1280, "height": 720, "fps": 30},
                 {"pixelFormats": ["YUYV"], "width": 640, "height": 480, "fps": 30}]},
               {"id": "ir", "face": "lid.A", "formats": [
                 {"pixelFormats": ["GREY"], "width": 640, "height": 360, "fps": 30}]}],
             "postures": [{"id": "open", "ranges": {}, "display": "screen"}]}
            """)
        // Without libjpeg-turbo: YUYV 720p, the MJPG modes passed over.
        #expect(ConfigCheck.formatProblems(rig, sink: .producer).isEmpty, "\(ConfigCheck.formatProblems(rig, sink: .producer))")
        let notes = ConfigCheck.modeNotes(rig, sink: .producer)
        #expect(notes.count == 2)
        #expect(notes.last == "the virtual camera: with libjpeg-turbo installed (apt-get install libturbojpeg0) it would take MJPG 1920x1080@30, decoded")
        #expect(notes.first?.hasPrefix("the virtual camera: mode YUYV 1280x720@30, written as captured") == true, "\(notes)")
        #expect(notes.first?.contains("not chosen: MJPG 1920x1080@30 (the output writes NV12 or YUYV") == true, "\(notes)")
        #expect(ConfigCheck.poolExclusions(rig).count == 1)
        // With it (installed for the tests): MJPG 1080p, decoded.
        #expect(SinkFormats.available.decoded == ["MJPG": "YUYV"])
        #expect(ConfigCheck.formatProblems(rig).isEmpty)
        #expect(ConfigCheck.modeNotes(rig).first?.hasPrefix("the virtual camera: mode MJPG 1920x1080@30, decoded into YUYV") == true, "\(ConfigCheck.modeNotes(rig))")
        #expect(ConfigCheck.modeNotes(rig).count == 1)
    }
}

/// `--check-config` names each configured sink and who feeds it.
@Suite struct SinkNotesTests {
    @Test func eachSinkIsNamed() throws {
        var config = DaemonConfig()
        #expect(ConfigCheck.sinksNote(config) == "sink loopback: foldcamd feeds a v4l2loopback device per virtual camera")
        config.sinks = [.pipewire]
        #expect(ConfigCheck.sinksNote(config).hasPrefix("sink pipewire: foldcam-pipewire publishes a node per virtual camera"))
    }
}
