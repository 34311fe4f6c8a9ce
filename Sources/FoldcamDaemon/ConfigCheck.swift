import FoldcamCapture
import FoldcamCore
import FoldcamDevices
import FoldcamIO
import FoldcamPlatform
import FoldcamVideo

/// `foldcamd --check-config [--config FILE | --rig ID|FILE] [--strict]`: everything the daemon
/// would trip on at start, found without starting it. Errors (the daemon would refuse to start,
/// or its virtual camera could never work) exit 2; warnings (it starts, but not as probably
/// meant) are listed and exit 0, or 2 with `--strict`.
public struct ConfigCheck: Sendable {
    public var notes: [String] = []
    public var warnings: [String] = []
    public var errors: [String] = []
    /// "rig duo (2 panels, ...)" when config and rig loaded.
    public var summary: String?

    /// The documented exit codes (man foldcamd, docs/install.md).
    public static let valid: Int32 = 0
    public static let invalid: Int32 = 2

    public static func run(_ options: DaemonOptions) -> ConfigCheck {
        var check = ConfigCheck()
        let loaded: LoadedConfiguration
        do {
            loaded = try LoadedConfiguration.load(options)
        } catch {
            check.errors.append("\(error)")
            return check
        }
        check.notes = loaded.notes
        check.warnings = loaded.warnings
        check.inspect(loaded.config, rig: loaded.rig, simulate: options.simulate)
        let rig = loaded.rig
        check.summary = "rig \(rig.id) (\(ClientText.counted(rig.panels.count, "panel")), \(ClientText.counted(rig.displays.count, "display")), \(ClientText.counted(rig.cameras.count, "camera")), \(ClientText.counted(rig.postures.count, "posture"))), at most \(loaded.config.maxClients) clients"
        return check
    }

    /// The checks beyond decoding: what the daemon looks up or derives at start.
    mutating func inspect(_ config: DaemonConfig, rig: Rig, simulate: Bool) {
        if let group = config.group, GroupLookup.id(named: group) == nil {
            warnings.append("group \"\(group)\" does not exist: only root and the daemon's user could change state or receive frames (create it, e.g. groupadd \(group), or fix \"group\")")
        }
        warnings += HingeAxisCheck.notes(for: rig)
        if config.cameraMode == .virtual {
            notes += Self.poolExclusions(rig)
            // Loading already refused a follow naming no display: each one resolves here.
            let specs = config.virtualCameras
            let follows = (try? VirtualCameraSpec.resolve(specs, rig: rig)) ?? []
            for (spec, follow) in zip(specs, follows) {
                let subject = specs.count == 1 ? "the virtual camera" : "virtual camera \"\(spec.id)\""
                errors += Self.formatProblems(rig, follow: follow, subject: subject)
                notes += Self.modeNotes(rig, follow: follow, subject: subject)
            }
        }
        if !simulate { warnings += Self.outputWarnings(rig, drmEntries: Directory.names(in: "/sys/class/drm")) }
        if config.cameraMode == .virtual {
            notes.append(Self.sinksNote(config))
        }
        if config.cameraMode == .virtual, config.feedsLoopback, config.virtualCameraForwarding == .auto, !simulate, let warning = Self.loopbackBufferWarning() {
            warnings.append(warning)
        }
        if let directory = config.metricsDirectory {
            switch PathKind.of(directory) {
            case .directory: break
            case .missing: warnings.append("metricsDirectory \(directory) does not exist: no metrics file is written until it does")
            case let .unreadable(errno): warnings.append("metricsDirectory \(directory) cannot be looked at: \(errno)")
            default: warnings.append("metricsDirectory \(directory) is not a directory")
            }
        }
        warnings += Self.directoryWarnings(config)
        for node in config.virtualCameras.compactMap(\.loopbackDevice) where !simulate && config.feedsLoopback {
            switch PathKind.of(node) {
            case .characterDevice: break
            case .missing: warnings.append("loopbackDevice \(node) does not exist now: the virtual camera's readiness stays interrupted (outputFailed) until v4l2loopback provides it and foldcamd is restarted")
            default: warnings.append("loopbackDevice \(node) is not a character device")
            }
        }
    }

    /// Which sinks carry the virtual cameras, and who feeds each.
    static func sinksNote(_ config: DaemonConfig) -> String {
        config.sinks.map { sink in
            switch sink {
            case .loopback: return "sink loopback: foldcamd feeds a v4l2loopback device per virtual camera"
            case .pipewire: return "sink pipewire: foldcam-pipewire publishes a node per virtual camera in each user's session (foldcamd sees it only when it reports; foldcamctl status)"
            }
        }.joined(separator: "\n")
    }

    /// The state and metrics directories along their whole paths (`DirectorySafety`): one the
    /// daemon would refuse to use, or one its group could write to.
    static func directoryWarnings(_ config: DaemonConfig) -> [String] {
        let directories = [("stateDirectory", config.stateDirectory), ("metricsDirectory", config.metricsDirectory)]
        return directories.flatMap { key, directory -> [String] in
            guard let directory, PathKind.of(directory) == .directory else { return [] }
            let verdict = DirectorySafety.check(directory)
            let refusal = verdict.refusal.map { ["\(key) \(directory) is not safe, so the daemon will not use it: \($0)"] } ?? []
            return refusal + verdict.warnings.map { "\(key): \($0)" }
        }
    }

    /// Outputs the rig names that this machine's DRM cards do not have (`drmEntries`: the names
    /// in /sys/class/drm). No card at all (a container, a build machine) says nothing.
    static func outputWarnings(_ rig: Rig, drmEntries: [String]) -> [String] {
        let connectors = drmEntries.compactMap { ConnectorRecord.split(sysname: $0)?.name }
        guard drmEntries.contains(where: { $0.hasPrefix("card") }) else { return [] }
        let known = Set(connectors)
        return rig.displays.compactMap { display in
            guard let name = display.output?.connector, !known.contains(name) else { return nil }
            let listed = known.sorted()
            return "display \(display.id): output \"\(name)\" is not a DRM connector of this machine\(NearestName.hint(for: name, among: listed)) (connectors: \(listed.isEmpty ? "none" : listed.joined(separator: ", "))): it counts as disconnected, so the display is never viewed"
        }
    }

    /// Zero-copy forwarding needs more of v4l2loopback's buffers than its default 2; nil when
    /// the module is not loaded (nothing to tell yet) or has enough.
    static func loopbackBufferWarning(parameter: String = "/sys/module/v4l2loopback/parameters/max_buffers") -> String? {
        guard let text = try? FileContents.readAttribute(parameter, subject: "v4l2loopback", call: "max_buffers"),
              let buffers = Int(String(text.filter(\.isNumber))), buffers < ForwardingPlan.neededLoopbackBuffers else { return nil }
        return "v4l2loopback is loaded with max_buffers=\(buffers): the virtual camera will forward with one copy per frame, as zero-copy (virtualCameraForwarding \"auto\", the default) needs at least \(ForwardingPlan.neededLoopbackBuffers) (load it with max_buffers=\(ForwardingPlan.wantedLoopbackBuffers); or set \"virtualCameraForwarding\": \"copy\" to choose the copy)"
    }

    /// Each camera the rig keeps out of every virtual camera's pool, and why (an IR camera is,
    /// by default): said, so a camera missing from the pool is not a surprise.
    static func poolExclusions(_ rig: Rig) -> [String] {
        rig.cameras.indices.compactMap { index in
            VirtualCameraPlan.exclusion(of: index, in: rig).map { "camera \(rig.cameras[index].id) is kept out of the virtual camera's pool: \($0)" }
        }
    }

    /// The virtual camera needs a mode every pool camera offers, in a pixel format the producer
    /// writes; without one the daemon runs but its readiness can never be `ready`.
    static func formatProblems(_ rig: Rig, follow: VirtualCameraFollow = .viewed, subject: String = "the virtual camera", sink: SinkFormats = .available) -> [String] {
        let plan = VirtualCameraPlan(rig: rig, follow: follow, sink: sink)
        guard !plan.pool.isEmpty else { return [] }
        guard let mode = plan.format else {
            let offers = plan.pool.map { index in
                let camera = rig.cameras[index]
                return "\(camera.id): \(camera.modes.map(\.description).joined(separator: ", "))"
            }
            return ["\(subject)'s pool (\(plan.pool.map { rig.cameras[$0].id }.joined(separator: ", "))) shares no format (same pixel format and size): its readiness would stay interrupted (noCommonFormat). Give every pool camera one common format, or set \"cameraMode\": \"individual\". They offer:\n  " + offers.joined(separator: "\n  ")]
        }
        guard plan.modeChoice.chosen != nil, let written = plan.outputPixelFormat, let format = PixelFormat(rawValue: written),
              format.accepts(width: mode.width, height: mode.height) else {
            return ["\(subject)'s format would be \(mode), which the producer cannot write (NV12 or YUYV, even width and height): its readiness would stay interrupted (unsupportedFormat); \(plan.modeChoice.explanation)"]
        }
        return []
    }

    /// Which mode the virtual camera takes and why the pool's other shared modes were not
    /// taken (nothing when there is no pool or no shared mode: `formatProblems` says so).
    static func modeNotes(_ rig: Rig, follow: VirtualCameraFollow = .viewed, subject: String = "the virtual camera", sink: SinkFormats = .available) -> [String] {
        let plan = VirtualCameraPlan(rig: rig, follow: follow, sink: sink)
        guard !plan.pool.isEmpty, plan.modeChoice.chosen != nil else { return [] }
        var notes = ["\(subject): \(plan.modeChoice.explanation)"]
        // Said when libjpeg-turbo would give a better mode than the one chosen without it.
        if sink.decoded["MJPG"] == nil {
            let decoding = SinkFormats(direct: sink.direct, decoded: sink.decoded.merging(["MJPG": "YUYV"]) { current, _ in current })
            if let better = VirtualCameraPlan(rig: rig, follow: follow, sink: decoding).format, better != plan.format {
                notes.append("\(subject): with libjpeg-turbo installed (apt-get install libturbojpeg0) it would take \(better), decoded")
            }
        }
        return notes
    }

    /// Errors, or warnings under `--strict`.
    public func failed(strict: Bool) -> Bool { !errors.isEmpty || (strict && !warnings.isEmpty) }

    public func exitCode(strict: Bool) -> Int32 { failed(strict: strict) ? Self.invalid : Self.valid }

    /// Prints the result: notes and the verdict on stdout, each warning and error on stderr
    /// with its syslog priority (as the daemon would log them). Returns the exit code.
    public func report(strict: Bool, log: Log) -> Int32 {
        // Notes first, whatever the verdict: they say which files were read.
        if !notes.isEmpty, !StandardOutput.write(notes.joined(separator: "\n") + "\n") { return 1 }
        for warning in warnings { log.warning("\(warning)\(strict ? " (an error under --strict)" : "")") }
        for error in errors { log.error(error) }
        if failed(strict: strict) {
            if errors.isEmpty { log.error("configuration refused under --strict: \(warnings.count) warning\(warnings.count == 1 ? "" : "s")") }
            return Self.invalid
        }
        guard let summary else { return Self.valid }
        let counted = warnings.isEmpty ? "" : " (\(warnings.count) warning\(warnings.count == 1 ? "" : "s") above)"
        return StandardOutput.write("configuration valid: \(summary)\(counted)\n") ? Self.valid : 1
    }
}
