import FoldcamTestSupport
import Glibc
import Testing

/// The build step that embeds `--version`'s revision (Sources/EmbedRigPresetsTool): REVISION
/// first, else the commit .git's HEAD names in a clone or a worktree, loose or packed, else
/// "unknown" (a source tarball).
@Suite("the revision --version embeds")
struct BuildInfoTests {
    static let commit = "0123456789abcdef0123456789abcdef01234567"
    static let other = "fedcba9876543210fedcba9876543210fedcba98"

    /// Runs the tool on `directory` (VERSION, maybe REVISION, maybe git/) and returns the revision.
    static func revision(in directory: TemporaryDirectory, gitDirectory: String?) throws -> String {
        try directory.write("VERSION", "0.1.0\n")
        let child = try ChildProcess(
            executable: try Executables.path(of: "EmbedRigPresetsTool"),
            arguments: ["--build-info", directory.file("BuildInfo.swift"), directory.file("VERSION"), directory.file("REVISION")] + (gitDirectory.map { [$0] } ?? []),
            stdoutPath: directory.file("out"), stderrPath: directory.file("err"))
        try #require(child.exitCode(timeout: .seconds(30)) == 0, "\(child.stderr)")
        let generated = readTextFile(directory.file("BuildInfo.swift"))
        for line in generated.split(separator: "\n") where line.contains("static let revision = \"") {
            return String(line.split(separator: "\"")[1])
        }
        throw HarnessError("no revision in:\n\(generated)")
    }

    static func mkdirs(_ path: String) { _ = mkdir(path, 0o755) }

    @Test func aCloneALooseRefAPackedRefADetachedHeadAWorktree() throws {
        let directory = try TemporaryDirectory()
        let git = directory.file("git")
        for path in [git, git + "/refs", git + "/refs/heads"] { Self.mkdirs(path) }
        try directory.write("git/HEAD", "ref: refs/heads/main\n")
        try directory.write("git/refs/heads/main", Self.commit + "\n")
        #expect(try Self.revision(in: directory, gitDirectory: git) == String(Self.commit.prefix(12)))

        // After `git pack-refs`: the loose file is gone, packed-refs has the line.
        unlink(directory.file("git/refs/heads/main"))
        try directory.write("git/packed-refs", "# pack-refs with: peeled fully-peeled sorted\n\(Self.other) refs/heads/main\n^\(Self.commit)\n")
        #expect(try Self.revision(in: directory, gitDirectory: git) == String(Self.other.prefix(12)))

        try directory.write("git/HEAD", Self.commit + "\n")
        #expect(try Self.revision(in: directory, gitDirectory: git) == String(Self.commit.prefix(12)), "a detached HEAD")

        // A worktree: its own HEAD, refs in the common directory.
        let worktree = git + "/worktrees/wt"
        for path in [git + "/worktrees", worktree] { Self.mkdirs(path) }
        try directory.write("git/worktrees/wt/HEAD", "ref: refs/heads/main\n")
        try directory.write("git/worktrees/wt/commondir", "../..\n")
        #expect(try Self.revision(in: directory, gitDirectory: worktree) == String(Self.other.prefix(12)))

        // REVISION (scripts/package) wins, -dirty and all.
        try directory.write("REVISION", "abcdef012345-dirty\n")
        #expect(try Self.revision(in: directory, gitDirectory: git) == "abcdef012345-dirty")
    }

    @Test func aTreeWithoutGitSaysUnknown() throws {
        let directory = try TemporaryDirectory()
        #expect(try Self.revision(in: directory, gitDirectory: nil) == "unknown")
        #expect(try Self.revision(in: directory, gitDirectory: directory.file("no-such-git")) == "unknown")
        Self.mkdirs(directory.file("git"))
        try directory.write("git/HEAD", "ref: refs/heads/unborn\n")
        #expect(try Self.revision(in: directory, gitDirectory: directory.file("git")) == "unknown", "a branch with no commit yet")
    }
}
