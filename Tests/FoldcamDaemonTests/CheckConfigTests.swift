import FoldcamTestSupport
import Glibc
import Testing

/// `foldcamd --check-config` finds what the daemon would trip on (issue 13): missing files,
/// an unknown group, a wrongly signed hinge axis, a pool without a common format, and relative
/// paths, which it resolves against the configuration file's directory as the daemon does.
@Suite struct CheckConfigTests {
    struct Outcome {
        var code: Int32?
        var stdout: String
        var stderr: String
    }

    /// Runs `foldcamd --check-config ARGS` from `/` (systemd's working directory), so a path
    /// resolved against the working directory would not be found; as another user when asked
    /// (and possible: `OtherUser` needs root).
    static func check(_ arguments: [String], in directory: TemporaryDirectory, asOtherUser: Bool = false) throws -> Outcome {
        let command = ["-c", #"cd / && exec "$0" "$@""#, try Executables.path(of: "foldcamd"), "--check-config"] + arguments
        let child = asOtherUser && OtherUser.available
            ? try OtherUser.start("/bin/sh", command, in: directory, name: "check")
            : try ChildProcess(executable: "/bin/sh", arguments: command, stdoutPath: directory.file("check.out"), stderrPath: directory.file("check.err"))
        let code = child.exitCode(timeout: .seconds(60))
        return Outcome(code: code, stdout: child.stdout, stderr: child.stderr)
    }

    /// The duo preset as a file, with `edit` applied to its text.
    static func duo(_ directory: TemporaryDirectory, name: String, edit: (String) -> String = { $0 }) throws {
        let child = try ChildProcess(executable: try Executables.path(of: "foldcamctl"), arguments: ["rig", "show", "duo"],
                                     stdoutPath: directory.file("duo.out"), stderrPath: directory.file("duo.err"))
        guard child.exitCode(timeout: .seconds(60)) == 0 else { throw HarnessError("foldcamctl rig show duo failed: \(child.stderr)") }
        let edited = edit(child.stdout)
        guard edited != child.stdout || name == "rig.json" else { throw HarnessError("the edit changed nothing in the duo rig") }
        try directory.write(name, edited)
    }

    @Test func aRelativeRigIsResolvedAgainstTheConfigurationsDirectoryAndSaidSo() throws {
        let directory = try TemporaryDirectory()
        try Self.duo(directory, name: "rig.json")
        try directory.write("foldcam.json", #"{"rig": "rig.json"}"#)
        let outcome = try Self.check(["--config", directory.file("foldcam.json")], in: directory)
        #expect(outcome.code == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("rig: \(directory.file("rig.json")) (\"rig.json\" in the configuration is relative: resolved against \(directory.path), the configuration file's directory)"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("configuration valid: rig duo"), "\(outcome.stdout)")
    }

    /// `virtualCameraForwarding` (zero-copy or one copy, docs/virtual-camera.md): a valid value
    /// passes, a misspelt one is an error naming the key, the nearest value and the valid ones.
    @Test func theForwardingSwitchIsChecked() throws {
        let directory = try TemporaryDirectory()
        try directory.write("copy.json", #"{"rig": "duo", "virtualCameraForwarding": "copy"}"#)
        let valid = try Self.check(["--config", directory.file("copy.json")], in: directory)
        #expect(valid.code == 0, "\(valid.stderr)")
        try directory.write("typo.json", #"{"rig": "duo", "virtualCameraForwarding": "zerocopy"}"#)
        let typo = try Self.check(["--config", directory.file("typo.json")], in: directory)
        #expect(typo.code == 2)
        #expect(typo.stderr.contains("virtualCameraForwarding") && typo.stderr.contains("unknown setting \"zerocopy\"") && typo.stderr.contains("(expected one of: auto, copy)"), "\(typo.stderr)")
    }

    @Test func aMissingRigOrConfigurationIsAnError() throws {
        let directory = try TemporaryDirectory()
        try directory.write("foldcam.json", #"{"rig": "gone.json"}"#)
        let rig = try Self.check(["--config", directory.file("foldcam.json")], in: directory)
        #expect(rig.code == 2)
        #expect(rig.stderr.contains("<3>rig file \(directory.file("gone.json")) does not exist"), "\(rig.stderr)")
        let config = try Self.check(["--config", directory.file("absent.json")], in: directory)
        #expect(config.code == 2)
        #expect(config.stderr.contains("<3>config file \(directory.file("absent.json")) does not exist"), "\(config.stderr)")
    }

    @Test func theDefaultConfigurationIsReadOrItsAbsenceIsAWarning() throws {
        let directory = try TemporaryDirectory()
        let outcome = try Self.check([], in: directory)
        if access("/etc/foldcam/foldcam.json", F_OK) == 0 {
            // An installed configuration: it is the one checked, and said so.
            #expect(outcome.stdout.hasPrefix("configuration: /etc/foldcam/foldcam.json\n"), "\(outcome.stdout)")
        } else {
            #expect(outcome.code == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("<4>no configuration file /etc/foldcam/foldcam.json: using the defaults (rig duo, no control group)"), "\(outcome.stderr)")
            #expect(outcome.stdout.contains("configuration valid: rig duo") && outcome.stdout.contains("(1 warning above)"), "\(outcome.stdout)")
            #expect(try Self.check(["--strict"], in: directory).code == 2)
        }
    }

    @Test func anUnreadableConfigurationIsAnError() throws {
        // Root reads anything: as root the check runs as nobody, else as this user.
        let directory = try TemporaryDirectory()
        try directory.write("foldcam.json", #"{"rig": "duo"}"#)
        chmod(directory.file("foldcam.json"), 0)
        let outcome = try Self.check(["--config", directory.file("foldcam.json")], in: directory, asOtherUser: true)
        #expect(outcome.code == 2)
        #expect(outcome.stderr.contains("<3>config file \(directory.file("foldcam.json")) cannot be read (check permissions)"), "\(outcome.stderr)")
    }

    @Test func anUnknownGroupIsAWarningAndStrictMakesItAnError() throws {
        let directory = try TemporaryDirectory()
        try directory.write("foldcam.json", #"{"rig": "duo", "group": "no-such-foldcam-group"}"#)
        let relaxed = try Self.check(["--config", directory.file("foldcam.json")], in: directory)
        #expect(relaxed.code == 0)
        #expect(relaxed.stderr.contains("<4>group \"no-such-foldcam-group\" does not exist"), "\(relaxed.stderr)")
        #expect(relaxed.stdout.contains("configuration valid: rig duo") && relaxed.stdout.contains("(1 warning above)"), "\(relaxed.stdout)")
        let strict = try Self.check(["--config", directory.file("foldcam.json"), "--strict"], in: directory)
        #expect(strict.code == 2)
        #expect(strict.stderr.contains("<3>configuration refused under --strict: 1 warning"), "\(strict.stderr)")
        #expect(!strict.stdout.contains("configuration valid"), "\(strict.stdout)")
    }

    @Test func aWronglySignedHingeAxisIsTheWarningRigRenderGives() throws {
        let directory = try TemporaryDirectory()
        try Self.duo(directory, name: "flipped.json") { $0.replacingFirst(#""axis": [0, -1, 0]"#, with: #""axis": [0, 1, 0]"#) }
        let outcome = try Self.check(["--rig", directory.file("flipped.json")], in: directory)
        #expect(outcome.code == 0)
        #expect(outcome.stderr.contains("<4>hinge fold: closing swings right over left's B face; the axis should be (0, -1, 0)"), "\(outcome.stderr)")
        #expect(try Self.check(["--rig", directory.file("flipped.json"), "--strict"], in: directory).code == 2)
    }

    @Test func aPoolWithoutACommonFormatIsAnError() throws {
        let directory = try TemporaryDirectory()
        // inner-front offers only a size no other pool camera has.
        try Self.duo(directory, name: "nocommon.json") { text in
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let start = lines.firstIndex(where: { $0.contains(#""id": "inner-front""#) }) else { return text }
            var index = start
            var replaced = false
            while index < lines.count, !lines[index].contains(#""id": "outer-front""#) {
                if lines[index].contains("pixelFormats") {
                    lines[index] = replaced ? "" : #"       {"pixelFormats": ["YUYV"], "width": 800, "height": 600, "fps": 30}"#
                    replaced = true
                }
                index += 1
            }
            return lines.filter { !$0.isEmpty }.joined(separator: "\n")
        }
        let outcome = try Self.check(["--rig", directory.file("nocommon.json")], in: directory)
        #expect(outcome.code == 2)
        #expect(outcome.stderr.contains("<3>the virtual camera's pool (inner-front, outer-front, back) shares no format"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("<3>  inner-front: YUYV 800x600@30"), "\(outcome.stderr)")
        // In individual mode there is no virtual camera to give a format.
        try directory.write("individual.json", #"{"rig": "nocommon.json", "cameraMode": "individual"}"#)
        #expect(try Self.check(["--config", directory.file("individual.json")], in: directory).code == 0)
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        let parts = split(separator: target, maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? parts[0] + replacement + parts[1] : self
    }
}
