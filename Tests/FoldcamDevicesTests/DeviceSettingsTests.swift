import FoldcamCore
@testable import FoldcamDevices
import Testing

@Suite struct DeviceSettingsTests {
    @Test func configFieldsReachTheDeviceLayer() throws {
        let config = try DaemonConfig.decode(json: #"{"rig": "duo", "seat": "seat1", "loopbackLabel": "Kiosk Cam", "loopbackDevice": "/dev/video20", "sensorPollMilliseconds": 100}"#)
        let settings = DeviceSettings(config: config)
        #expect(settings.seat == "seat1")
        #expect(settings.loopback == CameraClassifier.Loopback(label: "Kiosk Cam", node: "/dev/video20"))
        #expect(settings.sensorPollMilliseconds == 100)
        // Every virtual camera's loopback is left out of the inventory.
        let two = try DaemonConfig.decode(json: #"{"virtualCameras": [{"id": "front", "follows": "front", "loopbackLabel": "foldcam front"}, {"id": "rear", "follows": "rear", "loopbackLabel": "foldcam rear", "loopbackDevice": "/dev/video21"}]}"#)
        #expect(DeviceSettings(config: two).loopback == CameraClassifier.Loopback(labels: ["foldcam front", "foldcam rear"], nodes: ["/dev/video21"]))
        let defaults = DeviceSettings(config: DaemonConfig())
        #expect(defaults.seat == "seat0" && defaults.loopback.labels == ["foldcam"] && defaults.loopback.nodes.isEmpty && defaults.sensorPollMilliseconds == 50)
    }

    @Test func badDeviceFieldsAreNamed() {
        #expect(throws: DocumentErrors.self) { try DaemonConfig.decode(json: #"{"sensorPollMilliseconds": 1}"#) }
        do {
            _ = try DaemonConfig.decode(json: #"{"seat": "", "loopbackDevice": "video20", "sensorPollMilliseconds": 5000}"#)
            Issue.record("expected errors")
        } catch {
            let text = error.errors.map { "\($0)" }
            #expect(text.count == 3)
            #expect(text.contains { $0.contains("loopbackDevice") && $0.contains("is not a device node") })
        }
    }
}
