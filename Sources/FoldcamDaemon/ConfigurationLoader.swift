import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// Reads the daemon configuration and its rig the one way the daemon, a reload, `--probe` and
/// `--check-config` all use, and says what it did: which file it read (or that it used the
/// defaults), and how a relative rig path in the file was resolved: from the file's own
/// directory, never the working directory (which is `/` under systemd). The other paths
/// (metricsDirectory, loopbackDevice) must be absolute.
public struct LoadedConfiguration: Sendable {
    public var config: DaemonConfig
    public var rig: Rig
    /// The configuration file read; nil when the defaults were used.
    public var configPath: String?
    /// What loading decided, for `--check-config` to show ("rig.json resolved against ...").
    public var notes: [String] = []
    /// What works, but probably not as meant (no configuration file: defaults).
    public var warnings: [String] = []
    /// The device model search, when no rig was configured (docs/devices.md); nil when a rig
    /// was given (configuration or --rig) or in simulation.
    public var model: ModelSelection?

    /// Loads and validates config and rig; throws `RigLoader.LoadError` naming the file and
    /// every problem.
    public static func load(_ options: DaemonOptions) throws -> LoadedConfiguration {
        var config = DaemonConfig()
        var notes: [String] = []
        var warnings: [String] = []
        let path = options.configPath ?? DaemonOptions.defaultConfigPath
        let explicit = options.configPath != nil
        var readPath: String?
        if explicit || (options.rig == nil && !options.simulate) {
            // Named explicitly: it must be there. The default may be absent (defaults apply),
            // but one that is there and cannot be read is an error, as for the daemon.
            if explicit || PathKind.of(path) != .missing {
                let text = try RigLoader.readText(path, what: "config file")
                do {
                    config = try DaemonConfig.decode(json: text)
                } catch {
                    throw RigLoader.LoadError(description: "config file \(path) is invalid:\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
                }
                readPath = path
                notes.append("configuration: \(path)")
                let directory = Self.directory(of: path)
                if let resolved = Self.resolve(rigSpec: config.rig, against: directory) {
                    notes.append("rig: \(resolved) (\"\(config.rig)\" in the configuration is relative: resolved against \(directory), the configuration file's directory)")
                    config.rig = resolved
                }
            } else {
                warnings.append("no configuration file \(path): using the defaults (rig \(config.rig), no control group); create it or name one with --config")
            }
        }
        if let rig = options.rig {
            config.rig = rig
            if readPath != nil { notes.append("rig: \(rig) (--rig overrides the configuration's)") }
        }
        // "auto": the administrator's rig file if written, else this machine's model.
        var automatic = false
        if config.rigGiven && config.rig == DaemonConfig.automaticRig && options.rig == nil {
            let configFile = readPath ?? path
            switch try AutomaticRig.resolve(configPath: configFile, searchModels: false) {
            case let .file(local)?:
                config.rig = local
                notes.append("rig: \(local) (\"auto\": the rig file beside the configuration wins over any device model)")
            case .model?, nil:
                guard !options.simulate else {
                    throw RigLoader.LoadError(description: "config file \(configFile): rig \"auto\" is this machine's device model, which --simulate does not look for, and there is no \(AutomaticRig.localFile(besides: configFile)): give --rig ID or PATH")
                }
                automatic = true
            }
        }
        // A configured rig wins over any model; with none, this machine's model gives it.
        var model: ModelSelection?
        if (!config.rigGiven || automatic) && options.rig == nil && !options.simulate {
            let selection = try ModelSelection.select()
            warnings += selection.problems
            notes.append(selection.summary)
            if let chosen = selection.model, let rigID = selection.rig?.id {
                notes.append("rig: \(rigID) from model \(chosen.id) (no rig configured)")
                // The defaults' rig is not the one used: say which is.
                warnings = warnings.map { $0.replacingFirstText("using the defaults (rig \(config.rig),", with: "using the defaults (rig \(rigID) from model \(chosen.id),") }
                config.model = chosen
                config.rig = RigLoader.modelPrefix + chosen.id
            }
            model = selection
            if automatic && selection.rig == nil {
                throw RigLoader.LoadError(description: AutomaticRig.nothingFound(configPath: readPath ?? path, selection))
            }
        }
        let rig = try model?.rig ?? RigLoader.load(config.rig)
        // A virtual camera follows "viewed" or a display of this rig (the rig may be swapped
        // by --rig or a reload: checked against the one loaded).
        if config.cameraMode == .virtual {
            do {
                _ = try VirtualCameraSpec.resolve(config.virtualCameras, rig: rig)
            } catch {
                throw RigLoader.LoadError(description: "config file \(readPath ?? path) does not fit rig \(rig.id):\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
            }
        }
        return LoadedConfiguration(config: config, rig: rig, configPath: readPath, notes: notes, warnings: warnings, model: model)
    }

    /// The absolute (or configuration-relative) path a rig spec names, when it is a relative
    /// file path; nil for preset ids and absolute paths, which stay as they are.
    static func resolve(rigSpec spec: String, against directory: String) -> String? {
        guard RigPresets.json(spec) == nil, !spec.hasPrefix("/"), spec.contains("/") || spec.hasSuffix(".json") else { return nil }
        return join(directory, spec)
    }

    /// "/etc/foldcam/foldcam.json" -> "/etc/foldcam"; "foldcam.json" -> ".".
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    static func join(_ directory: String, _ relative: String) -> String {
        var rest = Substring(relative)
        while rest.hasPrefix("./") { rest = rest.dropFirst(2) }
        if directory == "." { return String(rest) }
        return directory.hasSuffix("/") ? directory + rest : directory + "/" + rest
    }
}

