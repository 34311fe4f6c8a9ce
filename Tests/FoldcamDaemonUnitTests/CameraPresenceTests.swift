import FoldcamCore
@testable import FoldcamDaemon
import FoldcamIO
import Testing

/// Hardware mode counts a rig camera present when a V4L2 node answered or a companion sees its
/// PipeWire node (docs/pipewire.md, "Cameras only PipeWire has"): the engine hears the union.
@Suite("camera presence: V4L2 or PipeWire")
struct CameraPresenceTests {
    @Test("a plug or unplug counts only when it changes whether the camera is seen anywhere")
    func union() {
        var presence = CameraPresence(cameras: 2)
        #expect(presence.pipeWire([true, false]) == [.cameraPlugged(camera: 0)])
        #expect(presence.device(.cameraPlugged(camera: 0)) == nil, "already seen through PipeWire")
        #expect(presence.device(.cameraUnplugged(camera: 0)) == nil, "PipeWire still sees it")
        #expect(presence.pipeWire([false, false]) == [.cameraUnplugged(camera: 0)])
        #expect(presence.device(.cameraPlugged(camera: 1)) == .cameraPlugged(camera: 1))
        #expect(presence.pipeWire([false, true]) == [], "the node answered already")
        #expect(presence.device(.cameraUnplugged(camera: 1)) == nil)
        #expect(presence.pipeWire([false, false]) == [.cameraUnplugged(camera: 1)])
        #expect(presence.device(.cameraBusy(camera: 1, busy: true)) == .cameraBusy(camera: 1, busy: true), "other news passes")
        #expect(presence.device(.cameraUnplugged(camera: 1)) == nil, "the engine was told already")
    }

    @Test("a reload keeps what was seen by camera id")
    func carriedByID() throws {
        let duo = try #require(try RigPresets.rig("duo"))
        var presence = CameraPresence(cameras: duo.cameras.count)
        _ = presence.pipeWire(duo.cameras.indices.map { $0 == 1 })
        var reordered = duo
        reordered.cameras.reverse()
        let carried = presence.carried(from: duo, to: reordered)
        #expect(carried.present == reordered.cameras.map { $0.id == duo.cameras[1].id })
    }

    @Test("a hardware daemon chooses a camera no V4L2 node answered for once a companion sees it in PipeWire, and drops it when the companion goes")
    func companionMakesACameraPresent() throws {
        var rig = try #require(try RigPresets.rig("duo"))
        for index in rig.cameras.indices { rig.cameras[index].pipewire = PipeWireMatch(nodeName: "cam-\(rig.cameras[index].id)") }
        let daemon = Daemon(mode: .hardware, rig: rig, metrics: DaemonMetrics(), log: Log(threshold: .error))
        #expect(daemon.engine.state.cameras.allSatisfy { $0.unavailable == .unplugged }, "nothing is seen before anything answered")
        let owner = PinBoard.Owner(uid: 1000, pid: 42, command: "foldcam-pipewire")
        let seen = rig.cameras.map { SinkReports.SeenCamera(camera: $0.id, node: "cam-\($0.id)") }
        _ = daemon.sinks.report([], cameras: seen, reporter: owner, sessionID: 3)
        daemon.applyPipeWirePresence()
        #expect(daemon.engine.state.cameras.allSatisfy { $0.unavailable == nil }, "\(daemon.engine.state.cameras.map(\.unavailable))")
        // A V4L2 node's unplug does not hide a camera PipeWire still has.
        daemon.applyDeviceInput(.cameraUnplugged(camera: 0))
        #expect(daemon.engine.state.cameras[0].unavailable == nil)
        daemon.clientLeft(sessionID: 3)
        #expect(daemon.engine.state.cameras.allSatisfy { $0.unavailable == .unplugged }, "the companion is gone: nothing sees them")
    }

    @Test("a simulated daemon's cameras do not depend on reports")
    func simulationIgnoresReports() throws {
        let rig = try #require(try RigPresets.rig("duo"))
        let daemon = Daemon(mode: .simulate, rig: rig, metrics: DaemonMetrics(), log: Log(threshold: .error))
        _ = daemon.sinks.report([], cameras: [], reporter: PinBoard.Owner(uid: 0, pid: 1, command: nil), sessionID: 1)
        daemon.applyPipeWirePresence()
        #expect(daemon.engine.state.cameras.allSatisfy { $0.unavailable == nil })
    }
}
