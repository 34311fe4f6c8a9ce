import FoldcamCore
import FoldcamDevices
import FoldcamIO
import FoldcamPlatform

/// `foldcamctl calibrate [--model FILE|auto] [--dry-run] [--force] [--output DIR]`: guides the
/// user through closed, 90°, flat and tent, fits the hinge sensor's sign and offset and whether
/// the accelerometer labels are swapped (`CalibrationFit`), and writes the model with those
/// corrections to the local models directory (docs/devices.md, "Calibrating"). No daemon needed;
/// root to write /etc/foldcam/models.d.
enum CalibrateCommand {
    static func run(_ arguments: inout ParsedArguments) async throws {
        let modelOption = arguments.value("--model") ?? "auto"
        let dryRun = arguments.flag("--dry-run")
        let force = arguments.flag("--force")
        let directory = arguments.value("--output") ?? ModelDatabase.localDirectory
        try arguments.finish()
        let (model, path) = try chooseModel(modelOption)
        let fileName = path.split(separator: "/").last.map(String.init) ?? model.id + ".json"
        let target = directory + "/" + fileName
        if !dryRun && !force && PathKind.of(target) != .missing {
            throw CalibrationError(description: "\(target) exists (a local model); run again with --force to replace it, or --output DIR to write elsewhere")
        }
        let rig: Rig
        do { rig = try model.resolvedRig() } catch { throw CalibrationError(description: "model file \(path): its rig is invalid:\n\(error)") }
        guard rig.hinges.count == 1, let hinge = rig.hinges.first else {
            throw CalibrationError(description: "calibrate folds one hinge, but rig \(rig.id) has \(rig.hinges.count); write its corrections by hand (docs/devices.md)")
        }
        let sensors: RawSensors
        do { sensors = try RawSensors.find(rig: rig, model: model) } catch { throw CalibrationError(description: "cannot list the IIO sensors: \(error)") }
        let run = CalibrationRun(rig: rig, sensors: sensors)
        guard !sensors.hinges.isEmpty || run.pair != nil else {
            let skipped = sensors.skipped.map { "\n  \($0)" }.joined()
            throw CalibrationError(description: "found no hinge sensor and no accelerometer pair of rig \(rig.id) to calibrate (foldcamd --probe shows what it finds)\(skipped)")
        }
        StandardOutput.write("Calibrating model \(model.id) (\(path)), hinge \(hinge.id): \(run.names)\n")
        let steps = CalibrationStep.steps(for: hinge)
        let recorded = try await run.record(steps)
        let changes = try fit(run, steps: steps, recorded: recorded)
        try write(changes, modelPath: path, directory: directory, fileName: fileName, dryRun: dryRun)
    }

    /// The machine's model as foldcamd chooses it, or the file named.
    static func chooseModel(_ option: String) throws -> (DeviceModel, String) {
        if option != "auto" {
            let name = option.split(separator: "/").last.map(String.init) ?? option
            guard name.hasSuffix(".json") else { throw UsageError("--model \(option): name a model file ending in .json, or auto") }
            let text = try RigLoader.readText(option, what: "model file")
            do {
                return (try DeviceModelDecoder.decode(json: text, id: String(name.dropLast(".json".count))), option)
            } catch {
                throw CalibrationError(description: "model file \(option) is invalid:\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
            }
        }
        let selection = try ModelSelection.select()
        guard let chosen = selection.choice.chosen else {
            throw CalibrationError(description: "\(selection.summary): write a model for it first (docs/devices.md, \"Contributing a model\"; foldcamctl report gathers the facts), then calibrate it with --model FILE")
        }
        return (chosen.model, chosen.path)
    }

    /// The corrections the recorded steps give, one change per sensor entry.
    static func fit(_ run: CalibrationRun, steps: [CalibrationStep], recorded: [[Double?]]) throws -> [ModelCorrectionEdit.SensorChange] {
        var changes: [ModelCorrectionEdit.SensorChange] = []
        for (channel, sensor) in run.sensors.hinges.enumerated() {
            let pairs = zip(steps, recorded).compactMap { step, values in values[channel].map { CalibrationFit.Recorded(target: step.target, reading: $0) } }
            switch CalibrationFit.hinge(pairs) {
            case let .success(fit):
                StandardOutput.write("hinge sensor \(sensor.syspath): \(fit.correction.summary) (worst step off by \(CalibrationRun.degrees(fit.worstResidual))°)\n")
                changes.append(.hinge(entry: sensor.entry, newEntry: .object([("hinge", .string(run.rig.hinges[sensor.hinge].id)), ("iioName", .string(sensor.name))]), fit.correction))
            case let .failure(error):
                throw CalibrationError(description: "hinge sensor \(sensor.syspath): \(error.message)")
            }
        }
        if let pair = run.pair {
            let pairs = zip(steps, recorded).compactMap { step, values in values.last.flatMap { $0 }.map { CalibrationFit.Recorded(target: step.target, reading: $0) } }
            switch CalibrationFit.swappedLabels(pairs) {
            case let .success(swapped?):
                StandardOutput.write("accelerometers \(pair.parent.location) and \(pair.child.location): labels \(swapped ? "swapped" : "right")\n")
                for accelerometer in [pair.parent, pair.child] {
                    let id = run.rig.accelerometers[accelerometer.sensor].id
                    changes.append(.accelerometer(entry: accelerometer.entry, newEntry: .object([("accelerometer", .string(id)), ("location", .string(accelerometer.location))]), swapped: swapped))
                }
            case .success(nil):
                StandardOutput.write("accelerometers: no step away from 0°, 180° and 360° to tell whether their labels are swapped; left as they are\n")
            case let .failure(error):
                throw CalibrationError(description: error.message)
            }
        }
        return changes
    }

    /// The model file with the corrections merged in, written whole and atomically (or printed).
    static func write(_ changes: [ModelCorrectionEdit.SensorChange], modelPath: String, directory: String, fileName: String, dryRun: Bool) throws {
        let original = try JSONParser.parse(try RigLoader.readText(modelPath, what: "model file"))
        let (edited, changed) = ModelCorrectionEdit.apply(changes, to: original)
        let target = directory + "/" + fileName
        guard !changed.isEmpty else {
            // A copy would only hide later fixes to the shipped file.
            StandardOutput.write("No correction changes: \(modelPath) already fits the readings; nothing written.\n")
            return
        }
        StandardOutput.write("Changes to \(modelPath):\n" + changed.map { "  \($0)\n" }.joined())
        let text = edited.readableText() + "\n"
        if dryRun {
            StandardOutput.write("--dry-run: not written; \(target) would be:\n" + text)
            return
        }
        do {
            try Directory.create(directory)
            try SafeFile.replace(Array(text.utf8), directory: directory, name: fileName, mode: 0o644, durable: true)
        } catch {
            throw OutputError(description: "cannot write \(target): \(error) (writing \(ModelDatabase.localDirectory) needs root; --output DIR writes elsewhere)")
        }
        StandardOutput.write("Wrote \(target); foldcamd uses it from its next start (systemctl restart foldcamd).\n")
    }
}
