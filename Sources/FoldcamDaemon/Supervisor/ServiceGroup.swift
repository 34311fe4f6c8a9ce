import FoldcamCore
import FoldcamIO

/// A long-lived part of the daemon: the socket server, the decision state, the device inputs,
/// the virtual camera, the demo sweep, the metrics writer, the watchdog. Each is running once
/// built; `ServiceGroup` reloads and stops them in a declared order.
protocol DaemonService: AnyObject {
    var serviceName: String { get }
    /// Whether this part can take the new configuration; throws why not. No side effects:
    /// every part is asked before any changes, so a reload is applied whole or not at all.
    func checkReload(_ reload: ReloadWorker.Prepared) throws
    /// Takes the new configuration (called only after every check passed).
    func applyReload(_ reload: ReloadWorker.Prepared)
    func stop()
}

extension DaemonService {
    func checkReload(_ reload: ReloadWorker.Prepared) throws {}
}

/// The daemon's services in start order (swift-service-lifecycle's ServiceGroup, without tasks:
/// everything here runs on the one event loop).
final class ServiceGroup {
    private(set) var services: [DaemonService] = []
    private let log: Log

    init(log: Log) {
        self.log = log
    }

    /// Adds a started service; it will be stopped before the ones added earlier.
    func add(_ service: DaemonService) {
        services.append(service)
        log.debug("started \(service.serviceName)")
    }

    struct Refusal: Error, CustomStringConvertible {
        var service: String
        var reason: any Error
        var description: String { "\(service): \(reason)" }
    }

    /// Checks every service, then applies to every one, in start order; throws (changing
    /// nothing) when a service refuses.
    func reload(_ reload: ReloadWorker.Prepared) throws(Refusal) {
        for service in services {
            do {
                try service.checkReload(reload)
            } catch {
                throw Refusal(service: service.serviceName, reason: error)
            }
        }
        for service in services { service.applyReload(reload) }
    }

    /// Stops every service, the last started first.
    func stop() {
        for service in services.reversed() {
            service.stop()
            log.debug("stopped \(service.serviceName)")
        }
        services.removeAll()
    }
}
