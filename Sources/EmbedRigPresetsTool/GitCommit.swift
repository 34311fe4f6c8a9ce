import Foundation

/// The commit a git directory's HEAD names, read from its files (no git binary needed at build
/// time): HEAD holds a commit (detached) or `ref: refs/heads/NAME`, found as a loose ref file in
/// the worktree's or the common directory, or as a line of `packed-refs`.
enum GitCommit {
    static func head(gitDirectory: String) -> String? {
        let directory = URL(fileURLWithPath: gitDirectory)
        guard let head = firstLine(directory.appendingPathComponent("HEAD")) else { return nil }
        guard head.hasPrefix("ref:") else { return isCommit(head) ? head : nil }
        let ref = head.dropFirst("ref:".count).trimmingCharacters(in: .whitespaces)
        var common = directory
        if let path = firstLine(directory.appendingPathComponent("commondir")) {
            common = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
        }
        for base in [directory, common] {
            if let commit = firstLine(base.appendingPathComponent(ref)), isCommit(commit) { return commit }
        }
        // packed-refs lines: "<commit> <ref>"; "#" and "^" lines are comments and peeled tags.
        guard let packed = try? String(contentsOf: common.appendingPathComponent("packed-refs"), encoding: .utf8) else { return nil }
        for line in packed.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, parts[1] == ref, isCommit(String(parts[0])) { return String(parts[0]) }
        }
        return nil
    }

    static func firstLine(_ url: URL) -> String? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
        return line?.isEmpty == false ? line : nil
    }

    /// 40 (SHA-1) or 64 (SHA-256) lower-case hex digits.
    static func isCommit(_ text: String) -> Bool {
        (text.count == 40 || text.count == 64) && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
