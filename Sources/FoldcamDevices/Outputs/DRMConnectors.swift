import FoldcamCore
import FoldcamPlatform

/// Reads the DRM connectors present now from udev and sysfs (subsystem `drm`, devices
/// `cardK-NAME`). Attributes are read from their files each time, never from libudev's cache:
/// a `change` event comes on the card, not on the connector. Blocking: device thread only.
enum DRMConnectors {
    /// The connectors and whether any DRM card was seen at all.
    static func scan(_ context: UdevContext, readEDID: Bool) throws(DeviceError) -> (connectors: [ConnectorRecord], cardsSeen: Bool) {
        var connectors: [ConnectorRecord] = []
        var cardsSeen = false
        for device in try UdevEnumerator.devices(context, subsystems: ["drm"]) {
            let sysname = device.sysname
            guard let (card, name) = ConnectorRecord.split(sysname: sysname) else {
                if sysname.hasPrefix("card") { cardsSeen = true }
                continue
            }
            cardsSeen = true
            let syspath = device.syspath
            func attribute(_ name: String) -> String? { (try? SysfsAttributes.read(syspath, name))?.trimmingWhitespace }
            let state = OutputState(status: attribute("status"), enabled: attribute("enabled"), dpms: attribute("dpms"))
            let edid = readEDID ? (try? FileContents.read(syspath + "/edid", limit: 32 * 1024)).flatMap(EDIDIdentity.init(bytes:)) : nil
            connectors.append(ConnectorRecord(card: card, name: name, state: state, edid: edid))
        }
        return (connectors, cardsSeen)
    }
}
