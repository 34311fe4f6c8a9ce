import FoldcamCore
import FoldcamPlatform

/// Reads the DRM connectors present now from udev and sysfs (subsystem `drm`, devices
/// `cardK-NAME`). Attributes are read from their files each time, never from libudev's cache:
/// a `change` event comes on the card, not on the connector. Blocking: device thread only.
enum DRMConnectors {
    /// The connectors and whether any DRM card was seen at all; the panel orientation of the
    /// connectors in `orientationOf`, from each card's node (`failures`: nodes that could not
    /// be asked, with why).
    static func scan(_ context: UdevContext, readEDID: Bool, orientationOf names: Set<String>) throws(DeviceError)
        -> (connectors: [ConnectorRecord], cardsSeen: Bool, failures: [String: SystemCallError]) {
        var connectors: [ConnectorRecord] = []
        var cardsSeen = false
        var orientations: [String: [String: Int]] = [:]
        var failures: [String: SystemCallError] = [:]
        for device in try UdevEnumerator.devices(context, subsystems: ["drm"]) {
            let sysname = device.sysname
            guard let (card, name) = ConnectorRecord.split(sysname: sysname) else {
                if sysname.hasPrefix("card") {
                    cardsSeen = true
                    if !names.isEmpty, let node = device.devnode {
                        do { orientations[sysname] = try DRMPanelOrientation.read(node: node, names: names) } catch { failures[node] = error }
                    }
                }
                continue
            }
            cardsSeen = true
            let syspath = device.syspath
            func attribute(_ name: String) -> String? { (try? SysfsAttributes.read(syspath, name))?.trimmingWhitespace }
            let state = OutputState(status: attribute("status"), enabled: attribute("enabled"), dpms: attribute("dpms"))
            let edid = readEDID ? (try? FileContents.read(syspath + "/edid", limit: 32 * 1024)).flatMap(EDIDIdentity.init(bytes:)) : nil
            connectors.append(ConnectorRecord(card: card, name: name, state: state, edid: edid))
        }
        // Cards come before their connectors in sysfs order, but not necessarily in udev's.
        for index in connectors.indices {
            connectors[index].panelOrientation = orientations[connectors[index].card]?[connectors[index].name]
        }
        return (connectors, cardsSeen, failures)
    }
}
