import FoldcamCore
import FoldcamIO

/// A long-lived part of the daemon: the socket server, the decision state, the device inputs,
/// the virtual camera, the demo sweep, the metrics writer, the watchdog. Each is built (which
/// acquires nothing that needs stopping), then started and stopped by its `ServiceGroup`.
protocol DaemonService: AnyObject {
    var serviceName: String { get }
    /// Starts what the part runs (threads, devices, timers). A throw means nothing of it runs:
    /// the group then stops the parts started before it.
    func start() throws
    /// Whether this part can take the new configuration; throws why not. No side effects:
    /// every part is asked before any changes, so a reload is applied whole or not at all.
    func checkReload(_ reload: ReloadWorker.Prepared) throws
    /// Takes the new configuration (called only after every check passed).
    func applyReload(_ reload: ReloadWorker.Prepared)
    func stop()
}

extension DaemonService {
    func start() throws {}
    func checkReload(_ reload: ReloadWorker.Prepared) throws {}
}

/// The daemon's services in their declared order (swift-service-lifecycle's ServiceGroup,
/// without tasks: everything here runs on the one event loop). `start` starts them in that
/// order; `stop` stops the started ones in reverse, on every path: a start that fails half-way
/// stops the earlier ones before it throws, and the later ones never start.
final class ServiceGroup {
    /// In declared order.
    private(set) var services: [DaemonService] = []
    /// How many of `services`, from the first, are running.
    private(set) var startedCount = 0
    private let log: Log

    init(log: Log) {
        self.log = log
    }

    /// Declares the next service: it starts after the ones declared before and stops before them.
    func add(_ service: DaemonService) {
        precondition(startedCount == 0, "services are declared before the group starts")
        services.append(service)
    }

    struct StartFailure: Error, CustomStringConvertible {
        var service: String
        var reason: any Error
        var description: String { "\(service): \(reason)" }
    }

    /// Starts every declared service in order. When one fails, the ones started before it are
    /// stopped, last started first, and the failure is thrown.
    func start() throws(StartFailure) {
        for service in services[startedCount...] {
            do {
                try service.start()
            } catch {
                log.debug("\(service.serviceName) failed to start: \(error)")
                stop()
                throw StartFailure(service: service.serviceName, reason: error)
            }
            startedCount += 1
            log.debug("started \(service.serviceName)")
        }
    }

    struct Refusal: Error, CustomStringConvertible {
        var service: String
        var reason: any Error
        var description: String { "\(service): \(reason)" }
    }

    /// Checks every running service, then applies to every one, in start order; throws
    /// (changing nothing) when a service refuses.
    func reload(_ reload: ReloadWorker.Prepared) throws(Refusal) {
        let running = services.prefix(startedCount)
        for service in running {
            do {
                try service.checkReload(reload)
            } catch {
                throw Refusal(service: service.serviceName, reason: error)
            }
        }
        for service in running { service.applyReload(reload) }
    }

    /// Stops every started service, the last started first. Calling it again does nothing.
    func stop() {
        for service in services.prefix(startedCount).reversed() {
            service.stop()
            log.debug("stopped \(service.serviceName)")
        }
        startedCount = 0
        services.removeAll()
    }
}
