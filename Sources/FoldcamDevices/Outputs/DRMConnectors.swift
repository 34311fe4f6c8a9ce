import FoldcamCore
import FoldcamPlatform

/// Reads the DRM connectors present now from udev and sysfs (subsystem `drm`, devices
/// `cardK-NAME`). Attributes are read from their files each time, never from libudev's cache:
/// a `change` event comes on the card, not on the connector. Blocking: device thread only.
enum DRMConnectors {
    /// What one scan found.
    struct Scan {
        var connectors: [ConnectorRecord] = []
        /// Whether any DRM card was seen at all.
        var cardsSeen = false
        /// Card nodes whose panel orientation could not be asked, with why.
        var failures: [String: SystemCallError] = [:]
        /// Card nodes whose opening had made foldcamd DRM master, dropped at once.
        var droppedMaster: [String] = []
    }

    /// The connectors, with the panel orientation of those in `orientationOf` from `cache`; a
    /// card the cache does not hold yet is asked through its node when `readCards`, and stored.
    static func scan(_ context: UdevContext, readEDID: Bool, orientationOf names: Set<String>,
                     cache: inout PanelOrientationCache, readCards: Bool = true) throws(DeviceError) -> Scan {
        var scan = Scan()
        var cards: [PanelOrientationCache.Card] = []
        for device in try UdevEnumerator.devices(context, subsystems: ["drm"]) {
            let sysname = device.sysname
            guard let (card, name) = ConnectorRecord.split(sysname: sysname) else {
                if sysname.hasPrefix("card") {
                    scan.cardsSeen = true
                    let key = PanelOrientationCache.Card(sysname: sysname, syspath: device.syspath, device: device.devnum)
                    cards.append(key)
                    if readCards, !names.isEmpty, cache.needsReading(key), let node = device.devnode {
                        do {
                            let (orientations, dropped) = try DRMPanelOrientation.read(node: node, names: names)
                            cache.store(orientations, for: key)
                            if dropped { scan.droppedMaster.append(node) }
                        } catch {
                            cache.store([:], for: key)
                            scan.failures[node] = error
                        }
                    }
                }
                continue
            }
            scan.cardsSeen = true
            let syspath = device.syspath
            func attribute(_ name: String) -> String? { (try? SysfsAttributes.read(syspath, name))?.trimmingWhitespace }
            let state = OutputState(status: attribute("status"), enabled: attribute("enabled"), dpms: attribute("dpms"))
            let edid = readEDID ? (try? FileContents.read(syspath + "/edid", limit: 32 * 1024)).flatMap(EDIDIdentity.init(bytes:)) : nil
            scan.connectors.append(ConnectorRecord(card: card, name: name, state: state, edid: edid))
        }
        cache.keep(only: cards)
        // Cards come before their connectors in sysfs order, but not necessarily in udev's.
        for index in scan.connectors.indices {
            scan.connectors[index].panelOrientation = cache.orientations(of: scan.connectors[index].card)[scan.connectors[index].name]
        }
        return scan
    }
}
