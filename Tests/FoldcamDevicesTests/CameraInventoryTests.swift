import FoldcamCore
@testable import FoldcamDevices
import FoldcamIO
import FoldcamPlatform
import Testing

@Suite struct CameraInventoryTests {
    let log = Log(threshold: .error)

    @Test func firstInventoryReportsEveryRigCamera() throws {
        var inventory = CameraInventory(rig: try Fixtures.rig("duo"), loopback: Fixtures.loopback) { _ throws(DeviceError) in
            V4L2Answers(capability: Fixtures.capability())
        }
        #expect(inventory.update(Fixtures.platformCamera("inner-front"), log: log) == [.cameraPlugged(camera: 0), .cameraUnplugged(camera: 1), .cameraUnplugged(camera: 2)])
        #expect(inventory.descriptors.map(\.rigCamera) == ["inner-front"])
        let back = Fixtures.platformCamera("back", node: "/dev/video2")
        #expect(inventory.update(back, log: log) == [.cameraPlugged(camera: 2)])
        #expect(inventory.remove(syspath: back.syspath, log: log) == [.cameraUnplugged(camera: 2)])
    }

    @Test func withNoVideoNodeEveryRigCameraIsUnplugged() throws {
        var inventory = CameraInventory(rig: try Fixtures.rig("duo"), loopback: Fixtures.loopback) { _ throws(DeviceError) in
            V4L2Answers(capability: Fixtures.capability())
        }
        #expect(inventory.reconcile() == [.cameraUnplugged(camera: 0), .cameraUnplugged(camera: 1), .cameraUnplugged(camera: 2)])
        #expect(inventory.reconcile() == [])
    }

    @Test func aTaggedNodeThatFailsToOpenIsNotPresent() throws {
        var inventory = CameraInventory(rig: try Fixtures.rig("kiosk"), loopback: Fixtures.loopback) { node throws(DeviceError) in
            throw .failed(SystemCallError("open", .permissionDenied, subject: node))
        }
        #expect(inventory.update(Fixtures.platformCamera("front-cam"), log: log) == [.cameraUnplugged(camera: 0), .cameraUnplugged(camera: 1)])
        #expect(inventory.descriptors.isEmpty)
    }

    @Test func busyTaggedCameraIsBusyThenRecovers() throws {
        final class Answers: @unchecked Sendable { var busy = true }
        let answers = Answers()
        var inventory = CameraInventory(rig: try Fixtures.rig("kiosk"), loopback: Fixtures.loopback) { node throws(DeviceError) in
            if answers.busy { throw .failed(SystemCallError("VIDIOC_ENUM_FMT", .busy, subject: node)) }
            return V4L2Answers(capability: Fixtures.capability())
        }
        #expect(inventory.update(Fixtures.platformCamera("front-cam"), log: log) == [.cameraPlugged(camera: 0), .cameraBusy(camera: 0, busy: true), .cameraUnplugged(camera: 1)])
        #expect(inventory.descriptors.isEmpty)
        answers.busy = false
        let (events, stillBusy) = inventory.retryBusy(log: log)
        #expect(events == [.cameraBusy(camera: 0, busy: false)])
        #expect(!stillBusy)
        #expect(inventory.descriptors.count == 1)
    }

    @Test func vanishedAndGarbageDevicesAreSkippedAndNamed() throws {
        var inventory = CameraInventory(rig: try Fixtures.rig("kiosk"), loopback: Fixtures.loopback) { node throws(DeviceError) in
            throw .failed(SystemCallError("VIDIOC_ENUM_FRAMESIZES", .noDevice, subject: node))
        }
        _ = inventory.update(Fixtures.platformCamera("front-cam"), log: log)
        guard case let .failed(error)? = inventory.entries.values.first?.entry else { Issue.record("expected a failed entry"); return }
        #expect(error.description == "/dev/video0: VIDIOC_ENUM_FRAMESIZES failed: No such device")
        #expect(error.isVanished)
        let garbage = DeviceError.garbage(device: "/dev/video3", call: "VIDIOC_ENUM_FMT", what: "pixel format 0x1 is not a fourcc")
        #expect(garbage.description == "/dev/video3: VIDIOC_ENUM_FMT answered garbage: pixel format 0x1 is not a fourcc")
        #expect(DeviceError.failed(SystemCallError("VIDIOC_ENUM_FMT", .busy, subject: "/dev/video3")).description == "/dev/video3: VIDIOC_ENUM_FMT failed: Device or resource busy")
    }
}
