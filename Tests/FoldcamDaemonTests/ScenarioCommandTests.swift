import FoldcamTestSupport
import Glibc
import Testing

/// `foldcamd scenario` streams its output (issue 11): with nobody reading its stdout it fills
/// the pipe with the first states and waits there, its memory flat. Keeping every state until
/// the end (about 6.6 KB a step) grew by hundreds of MB on this script and ran out at 4 GiB on a
/// 16 MiB one.
@Suite struct ScenarioCommandTests {
    @Test func outputStreamsWithFlatMemory() throws {
        let directory = try TemporaryDirectory()
        let steps = 100_000
        try directory.write("script.json", "{\"steps\": [" + Array(repeating: #"{"wait": 0}"#, count: steps).joined(separator: ",") + "]}")
        let fifo = directory.file("stdout")
        guard mkfifo(fifo, 0o600) == 0 else { throw HarnessError("mkfifo: \(String(cString: strerror(errno)))") }
        // Opened first (non-blocking) so that the child's open for writing does not wait for a reader.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0 else { throw HarnessError("open fifo: \(String(cString: strerror(errno)))") }
        defer { close(reader) }
        let child = try ChildProcess(
            executable: try Executables.path(of: "foldcamd"),
            arguments: ["scenario", "--rig", "duo", "--script", directory.file("script.json")],
            stdoutPath: fifo, stderrPath: directory.file("stderr"))
        defer { child.kill(SIGKILL) }

        // Until it has been asleep (blocked writing to the full pipe) for half a second.
        let limitKilobytes = 100 * 1024
        var asleep = 0
        var peak = 0
        let deadline = ContinuousClock.now + .seconds(300)
        while asleep < 10 {
            #expect(!child.hasExited, "foldcamd scenario exited with nobody reading its output: \(child.stderr)")
            guard !child.hasExited, ContinuousClock.now < deadline else { return }
            let status = readTextFile("/proc/\(child.pid)/status")
            peak = max(peak, Self.kilobytes("VmHWM:", in: status))
            guard peak < limitKilobytes else {
                Issue.record("foldcamd scenario reached \(peak) kB before writing its output")
                return
            }
            asleep = status.contains("State:\tS") ? asleep + 1 : 0
            usleep(50_000)
        }
        // Lines came out while it is still running, i.e. before the last step was computed.
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(reader, &buffer, buffer.count)
        #expect(count > 0)
        #expect(String(decoding: buffer[..<max(count, 0)], as: UTF8.self).hasPrefix(#"{"step":0,"#))
        #expect(!child.hasExited)
        #expect(peak > 0 && peak < limitKilobytes, "peak \(peak) kB")
    }

    static func kilobytes(_ field: String, in status: String) -> Int {
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            // "VmHWM:\t   16788 kB"
            return Int(String(line.dropFirst(field.count).filter(\.isNumber))) ?? 0
        }
        return 0
    }
}
