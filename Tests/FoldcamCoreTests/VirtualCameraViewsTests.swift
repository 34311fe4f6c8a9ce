import FoldcamCore
import Testing

/// Virtual cameras bound to a display (docs/virtual-camera.md, "Several virtual cameras"):
/// their pools, their sources, and the `virtualCameras` configuration.
@Suite struct VirtualCameraViewsTests {
    func ids(_ rig: Rig, _ indices: [Int]) -> [String] { indices.map { rig.cameras[$0].id } }

    func source(_ harness: Harness, _ plan: VirtualCameraPlan) -> String? {
        plan.source(rig: harness.rig, state: harness.state.displays, viewedDisplay: harness.state.viewedDisplay).source.map { harness.rig.cameras[$0].id }
    }

    @Test func kioskFrontAndRearCamerasPoolOnlyTheirDisplaysCamera() throws {
        let rig = try preset("kiosk")
        let front = VirtualCameraPlan(rig: rig, follow: .display(rig.displayIndex("front")!))
        let rear = VirtualCameraPlan(rig: rig, follow: .display(rig.displayIndex("rear")!))
        #expect(ids(rig, front.pool) == ["front-cam"])
        #expect(ids(rig, rear.pool) == ["rear-cam"])
        #expect(ids(rig, VirtualCameraPlan(rig: rig).pool) == ["front-cam", "rear-cam"])
        #expect(front.format == CameraMode(pixelFormat: "YUYV", width: 1920, height: 1080, fps: 30))
        #expect(front.format == rear.format)
    }

    @Test func aPinSteersTheViewedCameraButNotTheDisplayBoundOnes() throws {
        var kiosk = try Harness("kiosk")
        let rig = kiosk.rig
        let viewed = VirtualCameraPlan(rig: rig)
        let front = VirtualCameraPlan(rig: rig, follow: .display(rig.displayIndex("front")!))
        let rear = VirtualCameraPlan(rig: rig, follow: .display(rig.displayIndex("rear")!))
        #expect(source(kiosk, viewed) == "front-cam")
        #expect(source(kiosk, front) == "front-cam")
        #expect(source(kiosk, rear) == "rear-cam")
        kiosk.apply(.pinView(display: rig.displayIndex("rear")))
        #expect(kiosk.viewed == "rear")
        #expect(source(kiosk, viewed) == "rear-cam")
        #expect(source(kiosk, front) == "front-cam")
        #expect(source(kiosk, rear) == "rear-cam")
        // The engine's own decision is the viewed camera's.
        #expect(kiosk.source == source(kiosk, viewed))
    }

    @Test func aDisplayBoundCameraShowsItsDisplaysForwardCameraThroughAFold() throws {
        var duo = try Harness("duo")
        let outer = VirtualCameraPlan(rig: duo.rig, follow: .display(duo.rig.displayIndex("outer")!))
        let inner = VirtualCameraPlan(rig: duo.rig, follow: .display(duo.rig.displayIndex("inner")!))
        #expect(ids(duo.rig, inner.pool).contains("inner-front"))
        #expect(!ids(duo.rig, outer.pool).contains("inner-front"))
        var seen: Set<String> = []
        for angle in stride(from: 180.0, through: 0, by: -15) {
            duo.hinge("fold", angle)
            let shown = source(duo, outer)
            // Whatever the hinge: the bound camera shows a camera forward for its own display,
            // or nothing when that display has none (never the viewed display's).
            if let shown {
                #expect(duo.forward("outer").contains(shown), "at \(angle)°: \(shown) is not forward for outer")
                seen.insert(shown)
            } else {
                #expect(duo.forward("outer").filter { ids(duo.rig, outer.pool).contains($0) }.isEmpty)
            }
            if let innerShown = source(duo, inner) { #expect(duo.forward("inner").contains(innerShown)) }
        }
        #expect(!seen.isEmpty)
    }

    // MARK: Configuration

    @Test func withoutTheKeyOneViewedCameraUsesTheTopLevelLoopback() throws {
        let config = try DaemonConfig.decode(json: #"{"loopbackLabel": "Kiosk Cam", "loopbackDevice": "/dev/video20"}"#)
        #expect(config.configuredVirtualCameras == nil)
        #expect(config.virtualCameras == [VirtualCameraSpec(id: "viewed", follows: "viewed", loopbackLabel: "Kiosk Cam", loopbackDevice: "/dev/video20")])
        #expect(DaemonConfig().virtualCameras.map(\.loopbackLabel) == ["foldcam"])
    }

    @Test func aListDecodesInOrder() throws {
        let config = try DaemonConfig.decode(json: #"""
            {"rig": "kiosk", "virtualCameras": [
              {"id": "front", "follows": "front", "loopbackLabel": "foldcam front"},
              {"id": "rear", "follows": "rear", "loopbackDevice": "/dev/video21"},
              {"id": "any", "loopbackLabel": "foldcam viewed"}]}
            """#)
        #expect(config.virtualCameras.map(\.id) == ["front", "rear", "any"])
        #expect(config.virtualCameras.map(\.follows) == ["front", "rear", "viewed"])
        #expect(config.virtualCameras[1].loopbackDevice == "/dev/video21")
        let rig = try preset("kiosk")
        #expect(try VirtualCameraSpec.resolve(config.virtualCameras, rig: rig) == [.display(0), .display(1), .viewed])
    }

    func errors(_ json: String) -> [String] {
        do {
            _ = try DaemonConfig.decode(json: json)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func badListsAreRefusedNamingTheFix() {
        let duplicateID = errors(#"{"virtualCameras": [{"id": "a", "loopbackLabel": "x"}, {"id": "a", "loopbackLabel": "y"}]}"#)
        #expect(duplicateID.contains { $0.contains("virtualCameras[1].id") && $0.contains("unique") }, "\(duplicateID)")
        let sameLabel = errors(#"{"virtualCameras": [{"id": "a", "loopbackLabel": "x"}, {"id": "b", "loopbackLabel": "x"}]}"#)
        #expect(sameLabel.contains { $0.contains("virtualCameras[1].loopbackLabel") && $0.contains("its own") }, "\(sameLabel)")
        let sameNode = errors(#"{"virtualCameras": [{"id": "a", "loopbackDevice": "/dev/video9"}, {"id": "b", "loopbackDevice": "/dev/video9"}]}"#)
        #expect(sameNode.contains { $0.contains("virtualCameras[1].loopbackDevice") }, "\(sameNode)")
        let both = errors(#"{"loopbackLabel": "foldcam", "virtualCameras": [{"id": "a", "loopbackLabel": "x"}]}"#)
        #expect(both.contains { $0.hasPrefix("loopbackLabel") && $0.contains("inside virtualCameras") }, "\(both)")
        let noLoopback = errors(#"{"virtualCameras": [{"id": "a"}]}"#)
        #expect(noLoopback.contains { $0.contains("loopbackLabel") && $0.contains("loopbackDevice") }, "\(noLoopback)")
        let badID = errors(#"{"virtualCameras": [{"id": "a b", "loopbackLabel": "x"}]}"#)
        #expect(badID.contains { $0.contains("not a valid id") }, "\(badID)")
        #expect(!errors(#"{"virtualCameras": []}"#).isEmpty)
        #expect(errors(#"{"virtualCameras": [{"id": "a", "loopbackLabel": "x"}, {"id": "b", "loopbackLabel": "y"}]}"#).isEmpty)
    }

    @Test func anUnknownDisplayIsRefusedWithTheNearestName() throws {
        let rig = try preset("kiosk")
        let specs = [VirtualCameraSpec(id: "a", follows: "rear", loopbackLabel: "a"), VirtualCameraSpec(id: "b", follows: "fron", loopbackLabel: "b")]
        #expect(throws: DocumentErrors.self) { try VirtualCameraSpec.resolve(specs, rig: rig) }
        do {
            _ = try VirtualCameraSpec.resolve(specs, rig: rig)
        } catch {
            let text = error.errors.map(\.description)
            #expect(text.count == 1)
            #expect(text.first?.contains("virtualCameras[1].follows") == true)
            #expect(text.first?.contains("did you mean \"front\"") == true, "\(text)")
        }
    }
}
