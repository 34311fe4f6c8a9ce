import FoldcamCore
import FoldcamDevices
import FoldcamIO
import FoldcamPlatform

/// `foldcamd --probe [--config FILE | --rig ID] [--json]`: lists the cameras, sensors and switches
/// present and why each was classified as it was, then each rig camera, hinge, accelerometer and
/// switch as found, busy, missing or failed. Exit code 0 when the rig has what it needs, 3
/// (`ProbeReport.needsMissingExitCode`) when something it needs is missing or failed, 1 when
/// udev itself could not be read.
public enum ProbeCommand {
    static let udevDatabase = "/run/udev"

    public static func run(_ options: DaemonOptions, json: Bool) throws -> Int32 {
        let loaded = try LoadedConfiguration.load(options)
        let (config, rig) = (loaded.config, loaded.rig)
        let log = Log(threshold: DaemonRunner.priority(config.logLevel) < .warning ? DaemonRunner.priority(config.logLevel) : .warning)
        for warning in loaded.warnings { log.warning(warning) }
        // Without udev's database every device is found unclassified: say why rather than
        // letting each rig device look missing.
        if PathKind.of(Self.udevDatabase) != .directory {
            log.warning("udev's database (\(Self.udevDatabase)) is absent: udev does not run here (a container or chroot?), so no device carries the properties the rig's udev rules set and every rig device shows as missing; run --probe where udev runs")
        }
        var report: ProbeReport
        do {
            report = try DeviceProbe.run(rig: rig, settings: DeviceSettings(config: config), log: log)
            report.modelSelection = loaded.model
            report.sinks = config.sinks
        } catch {
            log.error("cannot probe devices: \(error)")
            return 1
        }
        guard StandardOutput.write((json ? report.json.prettyText : report.text) + "\n") else { return 1 }
        return report.lacking.isEmpty ? 0 : ProbeReport.needsMissingExitCode
    }
}
