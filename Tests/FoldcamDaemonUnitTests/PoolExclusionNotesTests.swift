@testable import FoldcamDaemon
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
