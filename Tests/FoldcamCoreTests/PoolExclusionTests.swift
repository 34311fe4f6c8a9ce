import FoldcamCore
import Foundation
import Testing

/// `virtualCamera.exclude` and `excludeKinds` (issue 27, item 3): cameras kept out of the
/// virtual camera's pool by id or by kind, infrared ones by default, each with its reason.
@Suite struct PoolExclusionTests {
    /// The duo preset with a face-login IR camera beside the inner front camera and, when
    /// given, a `virtualCamera` section.
    func duoWithInfrared(virtualCamera: String? = nil, depthCamera: Bool = false) throws -> String {
        var text = try #require(RigPresets.json("duo"))
        let depth = depthCamera ? """
                {"id": "tof", "face": "right.B", "mediaTypes": ["video", "depth"], "formats": [
                  {"pixelFormats": ["NV12"], "width": 1920, "height": 1080, "fps": 60}]},

            """ : ""
        text = text.replacingOccurrences(of: "  \"cameras\": [\n", with: """
              "cameras": [
                {"id": "ir", "name": "IR camera", "face": "right.A", "formats": [
                  {"pixelFormats": ["GREY"], "width": 640, "height": 360, "fps": 30},
                  {"pixelFormats": ["Y16 "], "width": 340, "height": 340, "fps": 15}]},
            \(depth)
            """)
        if let virtualCamera {
            text = text.replacingOccurrences(of: "\"tunables\"", with: "\"virtualCamera\": \(virtualCamera),\n  \"tunables\"")
        }
        return text
    }

    func poolIDs(_ rig: Rig) -> [String] { VirtualCameraPlan(rig: rig).pool.map { rig.cameras[$0].id } }

    func errors(_ text: String) -> [String] {
        do {
            _ = try RigDecoder.decode(json: text)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func anInfraredCameraIsKeptOutByDefaultAndSaysWhy() throws {
        let rig = try RigDecoder.decode(json: try duoWithInfrared())
        #expect(rig.virtualCamera.excludeKinds == [.infrared])
        #expect(poolIDs(rig) == ["inner-front", "outer-front", "back"])
        let ir = try #require(rig.cameraIndex("ir"))
        #expect(rig.cameras[ir].kinds == [.infrared])
        #expect(VirtualCameraPlan.exclusion(of: ir, in: rig)
            == "infrared: every format it lists is greyscale (GREY, Y16 ); kept out by default (virtualCamera.excludeKinds)")
        #expect(VirtualCameraPlan.exclusion(of: try #require(rig.cameraIndex("back")), in: rig) == nil)
    }

    @Test func anEmptyKindListLetsTheInfraredCameraIn() throws {
        let rig = try RigDecoder.decode(json: try duoWithInfrared(virtualCamera: #"{"excludeKinds": []}"#))
        #expect(poolIDs(rig) == ["ir", "inner-front", "outer-front", "back"])
        // In, it shares no format with the colour cameras: what the default avoids.
        #expect(VirtualCameraPlan(rig: rig).format == nil)
    }

    @Test func aCameraIsKeptOutByID() throws {
        let rig = try RigDecoder.decode(json: try duoWithInfrared(virtualCamera: #"{"exclude": ["back"]}"#))
        #expect(poolIDs(rig) == ["inner-front", "outer-front"])
        #expect(VirtualCameraPlan.exclusion(of: try #require(rig.cameraIndex("back")), in: rig) == "listed in virtualCamera.exclude")
        // The default kinds still apply beside the ids.
        #expect(VirtualCameraPlan.exclusion(of: try #require(rig.cameraIndex("ir")), in: rig) != nil)
    }

    @Test func depthCamerasAreKeptOutOnlyWhenAsked() throws {
        let kept = try RigDecoder.decode(json: try duoWithInfrared(depthCamera: true))
        #expect(poolIDs(kept) == ["tof", "inner-front", "outer-front", "back"])
        let rig = try RigDecoder.decode(json: try duoWithInfrared(virtualCamera: #"{"excludeKinds": ["infrared", "depth"]}"#, depthCamera: true))
        // duo's outer-front and back cameras deliver depth too: only inner-front is left.
        #expect(poolIDs(rig) == ["inner-front"])
        #expect(VirtualCameraPlan.exclusion(of: try #require(rig.cameraIndex("tof")), in: rig)
            == "depth: its mediaTypes include depth; virtualCamera.excludeKinds has depth")
    }

    @Test func unknownNamesAreRefusedWithTheNearestOne() throws {
        #expect(errors(try duoWithInfrared(virtualCamera: #"{"exclude": ["bak"]}"#))
            == [#"virtualCamera.exclude[0]: unknown camera "bak"; did you mean "back"? (cameras: ir, inner-front, outer-front, back)"#])
        #expect(errors(try duoWithInfrared(virtualCamera: #"{"excludeKinds": ["infra-red"]}"#))
            == [#"virtualCamera.excludeKinds[0]: unknown camera kind "infra-red"; did you mean "infrared"? (kinds: infrared, depth)"#])
        #expect(errors(try duoWithInfrared(virtualCamera: #"{"exclude": "ir"}"#)).count == 1)
    }
}
