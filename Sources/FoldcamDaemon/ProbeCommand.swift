import FoldcamCore
import FoldcamDevices
import FoldcamIO

/// `foldcamd --probe [--config FILE | --rig ID] [--json]`: lists the cameras, sensors and switches
/// present and why each was classified as it was. Exit code 0 when the probe ran (whatever it
/// found), 1 when udev itself could not be read.
public enum ProbeCommand {
    public static func run(_ options: DaemonOptions, json: Bool) throws -> Int32 {
        let (config, rig) = try DaemonRunner.loadConfiguration(options)
        let log = Log(threshold: DaemonRunner.priority(config.logLevel) < .warning ? DaemonRunner.priority(config.logLevel) : .warning)
        let report: ProbeReport
        do {
            report = try DeviceProbe.run(rig: rig, settings: DeviceSettings(config: config), log: log)
        } catch {
            log.error("cannot probe devices: \(error)")
            return 1
        }
        guard StandardOutput.write((json ? report.json.prettyText : report.text) + "\n") else { return 1 }
        return 0
    }
}
