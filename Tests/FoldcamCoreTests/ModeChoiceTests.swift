import FoldcamCore
import Testing

/// The virtual camera's mode is the best one its output can take among those the pool shares
/// (issue 27, item 2): a UVC webcam's MJPG-only 1080p is not chosen unless it can be decoded.
@Suite struct ModeChoiceTests {
    static func mode(_ format: String, _ width: Int, _ height: Int, _ fps: Double = 30) -> CameraMode {
        CameraMode(pixelFormat: format, width: width, height: height, fps: fps)
    }

    /// The webcam, in `v4l2-ctl --list-formats-ext` order: MJPG at 1080p, MJPG and
    /// YUYV at 720p, YUYV at 480p.
    static let webcam = [mode("MJPG", 1920, 1080), mode("MJPG", 1280, 720), mode("YUYV", 1280, 720), mode("YUYV", 640, 480)]
    /// The common USB 2 variant: YUYV 720p only at 10 fps (bandwidth), MJPG at 30.
    static let slowYUYVWebcam = [mode("MJPG", 1280, 720), mode("YUYV", 1280, 720, 10), mode("YUYV", 640, 480)]
    /// A face-login IR camera.
    static let infrared = [mode("GREY", 640, 360), mode("Y16 ", 340, 340, 15)]
    static let decoding = SinkFormats(direct: ["NV12", "YUYV"], decoded: ["MJPG": "YUYV"])

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var cameras: [[CameraMode]]
        var sink: SinkFormats
        var chosen: CameraMode?
        var verdict: ModeVerdict?
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "webcam, no decoder: YUYV 720p", cameras: [webcam], sink: .producer, chosen: mode("YUYV", 1280, 720), verdict: .direct),
        Case(name: "webcam, MJPG decoded: 1080p", cameras: [webcam], sink: decoding, chosen: mode("MJPG", 1920, 1080), verdict: .decoded(into: "YUYV")),
        Case(name: "same size and rate: not decoded", cameras: [Array(webcam.dropFirst())], sink: decoding, chosen: mode("YUYV", 1280, 720), verdict: .direct),
        Case(name: "faster decoded beats slower captured", cameras: [slowYUYVWebcam], sink: decoding, chosen: mode("MJPG", 1280, 720), verdict: .decoded(into: "YUYV")),
        Case(name: "slow YUYV, no decoder: 720p at 10", cameras: [slowYUYVWebcam], sink: .producer, chosen: mode("YUYV", 1280, 720, 10), verdict: .direct),
        Case(name: "two webcams share 720p", cameras: [webcam, Array(webcam.dropFirst())], sink: decoding, chosen: mode("YUYV", 1280, 720), verdict: .direct),
        Case(name: "IR camera alone: nothing writable", cameras: [infrared], sink: decoding, chosen: nil, verdict: nil),
        Case(name: "webcam and IR share nothing", cameras: [webcam, infrared], sink: decoding, chosen: nil, verdict: nil),
        Case(name: "odd NV12 height refused", cameras: [[mode("NV12", 640, 481), mode("NV12", 320, 240)]], sink: .producer, chosen: mode("NV12", 320, 240), verdict: .direct),
    ]

    @Test(arguments: cases)
    func theBestWritableSharedModeIsChosen(_ test: Case) {
        let choice = ModeChoice(test.cameras, sink: test.sink)
        #expect(choice.mode == test.chosen)
        #expect(choice.verdict == test.verdict)
    }

    @Test func everySharedModeHasAVerdict() {
        let choice = ModeChoice([Self.webcam], sink: .producer)
        #expect(choice.shared.map(\.mode) == Self.webcam)
        #expect(choice.shared.map(\.verdict) == [
            .refused("the output writes NV12 or YUYV and decodes none"), .refused("the output writes NV12 or YUYV and decodes none"), .direct, .direct,
        ])
        #expect(ModeChoice([[Self.mode("NV12", 640, 481)]], sink: .producer).shared.first?.verdict == .refused("NV12 needs an even width and height"))
        #expect(ModeChoice([Self.webcam, Self.infrared], sink: .producer).shared.isEmpty)
    }

    @Test func theExplanationSaysWhichAndWhyNotTheOthers() {
        #expect(ModeChoice([Self.webcam], sink: .producer).explanation
            == "mode YUYV 1280x720@30, written as captured: the largest and fastest mode the pool shares that the output can take; not chosen: MJPG 1920x1080@30 (the output writes NV12 or YUYV and decodes none), MJPG 1280x720@30 (the output writes NV12 or YUYV and decodes none); 1 smaller, slower or decoded mode passed over")
        #expect(ModeChoice([Self.webcam], sink: Self.decoding).explanation
            == "mode MJPG 1920x1080@30, decoded into YUYV: the largest and fastest mode the pool shares that the output can take; 3 smaller, slower or decoded modes passed over")
        #expect(ModeChoice([Self.infrared], sink: .producer).explanation
            == "no mode the pool shares can be written: GREY 640x360@30 (the output writes NV12 or YUYV and decodes none), Y16  340x340@15 (the output writes NV12 or YUYV and decodes none)")
    }

    /// The laptop: that webcam beside an IR face-login camera, written from
    /// `v4l2-ctl --list-formats-ext`. The IR camera stays out; the webcam's YUYV 720p is chosen.
    @Test func aWebcamWithAnInfraredSensorGetsAWritableMode() throws {
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
        let plan = VirtualCameraPlan(rig: rig)
        #expect(plan.pool.map { rig.cameras[$0].id } == ["webcam"])
        #expect(plan.format == Self.mode("YUYV", 1280, 720))
        #expect(plan.outputPixelFormat == "YUYV")
        let decoded = VirtualCameraPlan(rig: rig, sink: Self.decoding)
        #expect(decoded.format == Self.mode("MJPG", 1920, 1080))
        #expect(decoded.outputPixelFormat == "YUYV")
    }
}
