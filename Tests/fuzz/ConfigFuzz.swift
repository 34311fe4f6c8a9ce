// The daemon configuration (`DaemonConfig.decode`), one of the targets of Tests/fuzz/run.
//
// Invariants: decoding never traps; a refused configuration names its problems (capped); an
// accepted one holds only values within the documented ranges.

func fuzzConfig(_ bytes: [UInt8]) {
    guard let text = text(bytes) else { return }
    let config: DaemonConfig
    do {
        config = try DaemonConfig.decode(json: text)
    } catch {
        checkErrors(error, "config")
        return
    }
    check(!config.rig.isEmpty, "accepted an empty rig")
    check((1...65536).contains(config.maxClients), "maxClients \(config.maxClients)")
    check((1...65536).contains(config.maxClientsPerUser), "maxClientsPerUser \(config.maxClientsPerUser)")
    check(config.reservedClients >= 0 && config.reservedClients < config.maxClients, "reservedClients \(config.reservedClients) of \(config.maxClients)")
    check((1...3600).contains(config.requestTimeoutSeconds), "requestTimeoutSeconds \(config.requestTimeoutSeconds)")
    check((1...3600).contains(config.clientStuckSeconds), "clientStuckSeconds \(config.clientStuckSeconds)")
    check(DaemonConfig.logLevels.contains(config.logLevel), "logLevel \(config.logLevel)")
    check(!config.seat.isEmpty, "accepted an empty seat")
    check(config.loopbackDevice.map { $0.hasPrefix("/dev/") } ?? true, "loopbackDevice \(config.loopbackDevice ?? "")")
    check((10...1000).contains(config.sensorPollMilliseconds), "sensorPollMilliseconds \(config.sensorPollMilliseconds)")
}
