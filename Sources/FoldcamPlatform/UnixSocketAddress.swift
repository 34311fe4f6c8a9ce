import Glibc

/// A `sockaddr_un` for a filesystem path, or an abstract name when the path starts with "@"
/// (as systemd's NOTIFY_SOCKET may).
struct UnixSocketAddress {
    static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    let path: String

    init(_ path: String) throws(SystemCallError) {
        guard !path.isEmpty, path.utf8.count <= Self.maximumPathBytes else {
            throw SystemCallError("socket path \"\(path)\" (at most \(Self.maximumPathBytes) bytes)", Errno(rawValue: ENAMETOOLONG))
        }
        self.path = path
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemCallError) -> R) throws(SystemCallError) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        // Abstract names are length-delimited; paths are NUL-terminated.
        let length = MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1)
        return try withUnsafePointer(to: &address) { pointer throws(SystemCallError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (sockaddrPointer: UnsafePointer<sockaddr>) throws(SystemCallError) -> R in
                try body(sockaddrPointer, socklen_t(length))
            }
        }
    }
}
