import Glibc

/// Directory listings (sysfs scan_elements, for one).
package enum Directory {
    /// The names in `path`, "." and ".." left out; empty when it cannot be read.
    package static func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates `path` (its parent must exist) unless a directory is already there: the local
    /// models directory, which the package leaves to the administrator.
    package static func create(_ path: String, mode: mode_t = 0o755) throws(SystemCallError) {
        do {
            try Syscall.makeDirectory(path, mode: mode)
        } catch {
            if error.errno == Errno(rawValue: EEXIST) && PathKind.of(path) == .directory { return }
            throw error
        }
    }
}
