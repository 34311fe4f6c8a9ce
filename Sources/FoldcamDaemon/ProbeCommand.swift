import FoldcamCore
import FoldcamDevices
import FoldcamIO

/// `foldcamd --probe [--config FILE | --rig ID] [--json]`: lists the cameras, sensors and switches
/// present and why each was classified as it was, then each rig camera, hinge, accelerometer and
/// switch as found, busy, missing or failed. Exit code 0 when the rig has what it needs, 3
/// (`ProbeReport.needsMissingExitCode`) when something it needs is missing or failed, 1 when
/// udev itself could not be read.
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
        return report.lacking.isEmpty ? 0 : ProbeReport.needsMissingExitCode
    }
}
