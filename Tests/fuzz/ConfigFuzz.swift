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
    // An accepted list: 1 to 8 cameras, unique ids, each with a loopback, no two the same.
    let cameras = config.virtualCameras
    check((1...VirtualCameraSpec.maximumCount).contains(cameras.count), "\(cameras.count) virtual cameras")
    check(Set(cameras.map(\.id)).count == cameras.count, "duplicate virtual camera ids \(cameras.map(\.id))")
    check((config.configuredVirtualCameras ?? []).allSatisfy { $0.loopbackDevice.map { $0.hasPrefix("/dev/") } ?? !$0.loopbackLabel.isEmpty }, "a virtual camera without a loopback")
    let nodes = cameras.compactMap(\.loopbackDevice)
    check(Set(nodes).count == nodes.count, "two virtual cameras on one loopback \(nodes)")
}
