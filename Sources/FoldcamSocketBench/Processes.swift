import FoldcamIO
import FoldcamPlatform
import Glibc

/// A child process (foldcamd, or this executable as the echo server) with stdout/stderr to files.
final class Child {
    let pid: pid_t
    let stderrPath: String
    private var exited = false

    init(executable: String, arguments: [String], stderrPath: String) throws {
        self.stderrPath = stderrPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, nil, argv, environ)
        guard result == 0 else { throw BenchError("cannot start \(executable): \(String(cString: strerror(result)))") }
        pid = child
    }

    /// SIGTERM, then wait (SIGKILL after 5 s).
    func stop() {
        guard !exited else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<500 {
            if waitpid(pid, &status, WNOHANG) == pid {
                exited = true
                return
            }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        exited = true
    }

    var hasExited: Bool {
        if exited { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return exited
    }

    deinit { stop() }

    /// Waits until `socketPath` accepts a connection and answers (`probe`), or the child dies.
    func waitUntilServing(_ socketPath: String, probe: [UInt8]) throws {
        for _ in 0..<2000 {
            if hasExited { throw BenchError("\(pid) exited during start-up:\n" + ProcStatus.read(stderrPath)) }
            if let socket = try? LineSocket(path: socketPath), (try? socket.roundTrip(probe)) != nil { return }
            usleep(5_000)
        }
        throw BenchError("nothing answered on \(socketPath) within 10 s:\n" + ProcStatus.read(stderrPath))
    }
}

/// The baseline: a minimal line echo server on the same kind of socket, built from the same
/// platform pieces as the daemon (epoll loop, non-blocking Unix stream sockets), doing no work
/// beyond finding the newline and writing the line back.
enum EchoServer {
    static func run(path: String) -> Int32 {
        do {
            let loop = try EventLoop()
            let listener = try UnixListener(path: path)
            let signals = try SignalSource([.terminate, .interrupt])
            var clients: [Int32: (UnixConnection, [UInt8])] = [:]
            // One receive buffer for every read, as the daemon has.
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            try loop.register(signals.descriptor) { _ in
                _ = signals.pending()
                loop.stop()
            }
            try loop.register(listener.descriptor) { _ in
                while let connection = try? listener.accept() {
                    let fd = connection.descriptor.rawValue
                    clients[fd] = (connection, [])
                    try? loop.register(connection.descriptor) { _ in
                        guard let (connection, buffered) = clients[fd] else { return }
                        var input = buffered
                        while true {
                            let received: Int?
                            do {
                                received = try chunk.withUnsafeMutableBytes { try connection.receive(into: $0) }
                            } catch {
                                received = 0
                            }
                            guard let count = received else { break }  // drained
                            if count == 0 {
                                loop.unregister(connection.descriptor)
                                connection.close()
                                clients[fd] = nil
                                return
                            }
                            input.append(contentsOf: chunk[..<count])
                            // Less than a full chunk: the socket is drained (epoll is
                            // level-triggered, as the daemon relies on too): no read to EAGAIN.
                            if count < chunk.count { break }
                        }
                        if let last = input.lastIndex(of: UInt8(ascii: "\n")) {
                            // Echo every complete line (a blocking client has at most one).
                            try? connection.sendAll(Array(input[...last]))
                            input.removeSubrange(...last)
                        }
                        clients[fd] = (connection, input)
                    }
                }
            }
            try loop.run()
            listener.shutdown()
            return 0
        } catch {
            StandardError.write("echo server: \(error)\n")
            return 1
        }
    }
}
