import Glibc

/// A fresh temporary directory (mode 0755, so a client running as another user can reach a
/// socket inside), removed with everything in it on deinit.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String = "foldcam-test") throws {
        var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        path = String(cString: created)
        chmod(path, 0o755)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Replaces `name` atomically, as an administrator's editor would.
    public func write(_ name: String, _ text: String) throws {
        let target = file(name)
        let temporary = target + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw HarnessError("open \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        Glibc.close(fd)
        guard written == bytes.count else { throw HarnessError("write \(temporary) failed") }
        guard rename(temporary, target) == 0 else { throw HarnessError("rename \(target): \(String(cString: strerror(errno)))") }
    }

    deinit {
        var stack = [path]
        var directories: [String] = []
        while let directory = stack.popLast() {
            directories.append(directory)
            guard let handle = opendir(directory) else { continue }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                let child = directory + "/" + name
                if Int32(entry.pointee.d_type) == Int32(DT_DIR) { stack.append(child) } else { unlink(child) }
            }
            closedir(handle)
        }
        for directory in directories.reversed() { rmdir(directory) }
    }
}

/// A whole file as text ("" when missing).
public func readTextFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { Glibc.close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

public func pathExists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
}
