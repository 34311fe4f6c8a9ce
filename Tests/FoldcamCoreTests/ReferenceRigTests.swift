import FoldcamCore
import Testing

/// What docs/rigs.md and docs/model.md say about the built-in rigs (ids, postures, direction
/// lists, the virtual camera's source and format), with the duo open, half open and closed.
@Suite struct ReferenceRigTests {
    @Test func allFivePresetsLoadWithTheirIDs() throws {
        #expect(RigPresets.ids.sorted() == ["convertible", "dual-screen", "duo", "kiosk", "trifold"])
        for id in RigPresets.ids {
            #expect(try preset(id).id == id)
        }
    }

    @Test func duoOpen() throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 180)
        #expect(duo.posture == "open")
        #expect(duo.forward("inner") == ["inner-front"])
        #expect(duo.backward("inner") == ["outer-front", "back"])
        #expect(duo.forward("outer") == ["outer-front", "back"])
        #expect(duo.backward("outer") == ["inner-front"])
        #expect(duo.viewed == "inner")
        #expect(duo.source == "inner-front")
    }

    @Test func duoClosed() throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 0)
        #expect(duo.posture == "closed")
        #expect(duo.forward("outer") == ["outer-front"])
        #expect(duo.backward("outer") == ["back"])
        #expect(duo.occluded("inner"))
        #expect(duo.forward("inner").isEmpty && duo.backward("inner").isEmpty)
        #expect(duo.camera("inner-front").unavailable == .occluded)
        #expect(duo.viewed == "outer")
        #expect(duo.source == "outer-front")
    }

    @Test func duoVirtualCameraFormatIsTheIntersection() throws {
        let duo = try Harness("duo")
        #expect(duo.engine.plan.format == CameraMode(pixelFormat: "NV12", width: 1920, height: 1080, fps: 60))
        #expect(duo.engine.plan.depth == false)
    }

    @Test func duoHalfOpenAndLidSwitch() throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 90)
        #expect(duo.posture == "halfOpen")
        #expect(duo.viewed == "inner")
        duo.apply(.lidSwitch(closed: true))
        #expect(duo.hingeAngle == 0)
        #expect(duo.state.hingeSources == [.lidSwitch])
        #expect(duo.posture == "closed")
        duo.apply(.lidSwitch(closed: false))
        // A switch that turns off hands back to the latest sensor reading.
        #expect(duo.hingeAngle == 90)
        #expect(duo.state.hingeSources == [.sensor])
    }

    @Test func hingesStartAtTheirInitialAngle() throws {
        #expect(try Harness("duo").hingeAngle == 180)
        let convertible = try Harness("convertible")
        #expect(convertible.hingeAngle == 110)
        #expect(convertible.state.hingeSources == [.initial])
        #expect(convertible.posture == "laptop")
    }

    @Test(arguments: [
        (5.0, "closed"), (15.0, "laptop"), (110.0, "laptop"), (189.0, "laptop"), (196.0, "tent"),
        (300.0, "tent"), (345.0, "tablet"), (360.0, "tablet"),
    ])
    func convertiblePostures(angle: Double, posture: String) throws {
        // A fresh engine each time (starting in laptop at 110°): only its own margin applies.
        var convertible = try Harness("convertible")
        convertible.hinge("lid", angle)
        #expect(convertible.posture == posture)
        #expect(convertible.viewed == "main")
    }

    @Test func convertibleTabletModeSwitchMeans360() throws {
        var convertible = try Harness("convertible")
        convertible.apply(.tabletModeSwitch(on: true))
        #expect(convertible.hingeAngle == 360)
        #expect(convertible.posture == "tablet")
        // Folded back: the world camera on lid.B is held against the base.
        #expect(convertible.camera("world").unavailable == .occluded)
        #expect(convertible.forward("main") == ["user"])
    }

    @Test func convertibleUserCameraAlwaysFacesTheUser() throws {
        for angle in stride(from: 20.0, through: 340.0, by: 20) {
            var convertible = try Harness("convertible")
            convertible.hinge("lid", angle)
            #expect(convertible.forward("main") == ["user"])
            #expect(convertible.backward("main") == ["world"])
            #expect(convertible.source == "user")
        }
    }

    @Test func kioskFrontAndRear() throws {
        let kiosk = try Harness("kiosk")
        #expect(kiosk.posture == "fixed")
        #expect(kiosk.forward("front") == ["front-cam"])
        #expect(kiosk.backward("front") == ["rear-cam"])
        #expect(kiosk.forward("rear") == ["rear-cam"])
        #expect(kiosk.backward("rear") == ["front-cam"])
        #expect(kiosk.viewed == "front")
        #expect(kiosk.source == "front-cam")
    }

    @Test func kioskPinnedToRearFollowsTheRearCamera() throws {
        var kiosk = try Harness("kiosk")
        kiosk.apply(.pinView(display: kiosk.rig.displayIndex("rear")))
        #expect(kiosk.viewed == "rear")
        #expect(kiosk.source == "rear-cam")
        #expect(kiosk.pair("rear", "rear-cam")?.mirror == true)
    }

    @Test func trifoldClosesOntoItsCoverDisplay() throws {
        var trifold = try Harness("trifold")
        #expect(trifold.posture == "open")
        #expect(trifold.forward("main") == ["inner-front"])
        trifold.hinge("right-fold", 0)
        #expect(trifold.posture == "partial")
        #expect(trifold.occluded("main"))
        #expect(trifold.viewed == "cover")
        trifold.hinge("left-fold", 0)
        #expect(trifold.posture == "closed")
        #expect(trifold.forward("cover") == ["cover-front"])
        #expect(trifold.source == "cover-front")
    }

    @Test func dualScreenLidCameraFacesBothDisplaysInLaptopPosture() throws {
        var dual = try Harness("dual-screen")
        dual.hinge("lid", 110)
        #expect(dual.forward("top") == ["user"])
        // θ between lid.A and base.A is 70°: the lid camera sees the bottom display's viewer too.
        #expect(dual.forward("bottom") == ["user"])
        dual.hinge("lid", 40)
        #expect(dual.backward("bottom") == ["user"])
    }

    // MARK: Three situations of a book foldable: direction and mirroring follow the viewer

    @Test func viewingInnerWhileStreamingOuterFrontFacesAway() throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 180)
        #expect(duo.viewed == "inner")
        let pair = try #require(duo.pair("inner", "outer-front"))
        #expect(!pair.forward && !pair.mirror)
        #expect(duo.backward("inner").contains("outer-front"))
    }

    @Test func closingSwingsTheOuterFrontCameraToTheUser() throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 180)
        duo.hinge("fold", 0)
        #expect(duo.viewed == "outer")
        let pair = try #require(duo.pair("outer", "outer-front"))
        #expect(pair.forward && pair.mirror)
        #expect(duo.forward("outer").first == "outer-front")
    }

    @Test func openAndFlippedMakesTheBackCameraTheSelfieCamera() throws {
        var duo = try Harness("duo")
        duo.hinge("fold", 180)
        duo.apply(.pinView(display: duo.rig.displayIndex("outer")))
        #expect(duo.viewed == "outer")
        #expect(duo.forward("outer").contains("back"))
        #expect(duo.pair("outer", "back")?.mirror == true)
        // The same back camera is backward for the inner display at the same moment.
        #expect(duo.backward("inner").contains("back"))
        #expect(duo.pair("inner", "back")?.mirror == false)
    }
}
