import FoldcamIO
import FoldcamPlatform
import Glibc

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func note(_ text: String) { StandardError.write("[foldcam-socket-bench] \(text)\n") }

func errnoText() -> String { String(cString: strerror(errno)) }

/// Nearest-rank percentiles over nanosecond samples.
struct Percentiles {
    let count: Int
    let p50: Double
    let p99: Double
    let maximum: Double

    init(_ samples: [UInt64]) {
        let sorted = samples.sorted()
        count = sorted.count
        func rank(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return Double(sorted[min(max(index, 0), sorted.count - 1)])
        }
        p50 = rank(0.5)
        p99 = rank(0.99)
        maximum = sorted.last.map { Double($0) } ?? .nan
    }
}

func microseconds(_ nanoseconds: Double) -> String {
    let value = nanoseconds / 1000
    return value >= 100 ? String(Int(value.rounded())) + " µs" : String((value * 100).rounded() / 100) + " µs"
}

func milliseconds(_ nanoseconds: Double) -> String {
    String((nanoseconds / 10_000).rounded() / 100) + " ms"
}

func ratioText(_ value: Double) -> String { String((value * 100).rounded() / 100) + "×" }

/// Raises the soft descriptor limit to the hard one (1,000 subscribers need more than 1,024).
func raiseDescriptorLimit(to wanted: Int) throws {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    if limit.rlim_cur >= rlim_t(wanted) { return }
    limit.rlim_cur = min(limit.rlim_max, rlim_t(max(wanted, 4096)))
    guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur >= rlim_t(wanted) else {
        throw BenchError("need \(wanted) file descriptors; the hard limit is \(limit.rlim_max) (raise it with ulimit -n)")
    }
}

/// A blocking client connection speaking JSON lines.
final class LineSocket {
    /// The platform layer's blocking client socket (it owns and closes the descriptor).
    private let connection: UnixConnection
    var fd: Int32 { connection.descriptor.rawValue }
    private var buffer: [UInt8] = []
    private var start = 0

    init(path: String) throws {
        do {
            connection = try UnixConnection.connect(path: path)
        } catch {
            throw BenchError("connect \(path): \(error)")
        }
        buffer.reserveCapacity(64 * 1024)
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw BenchError("send: \(errnoText())") }
            offset += written
        }
    }

    /// The next line (without its newline), blocking.
    func readLine() throws -> ArraySlice<UInt8> {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<newline]
                start = newline + 1
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: 16 * 1024))
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + old, 16 * 1024, 0) }
            if count < 0 && errno == EINTR {
                buffer.removeLast(16 * 1024)
                continue
            }
            guard count > 0 else { throw BenchError(count == 0 ? "the server closed the connection" : "recv: \(errnoText())") }
            buffer.removeLast(16 * 1024 - count)
        }
    }

    /// Sends a line and returns the reply line (events must not be interleaved).
    func roundTrip(_ line: [UInt8]) throws -> ArraySlice<UInt8> {
        try send(line)
        return try readLine()
    }
}

/// Resident memory and context switches from /proc.
enum ProcStatus {
    static func field(_ name: String, in text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
        }
        return nil
    }

    /// A /proc file or a log, "" when it cannot be read.
    static func read(_ path: String) -> String {
        String(decoding: (try? FileContents.read(path, limit: 16 * 1024 * 1024)) ?? [], as: UTF8.self)
    }

    /// The thread ids of a process (/proc/PID/task).
    static func threadIDs(pid: pid_t) -> [pid_t] {
        Directory.names(in: "/proc/\(pid)/task").compactMap { pid_t($0) }
    }

    /// Time on a CPU of every thread of the process, in nanoseconds (/proc/PID/task/*/schedstat):
    /// a figure the machine's load does not inflate, unlike wall-clock latency.
    static func cpuNanoseconds(pid: pid_t) -> UInt64 {
        threadIDs(pid: pid).reduce(0) { total, thread in
            total + (read("/proc/\(pid)/task/\(thread)/schedstat").split(separator: " ").first.flatMap { UInt64($0) } ?? 0)
        }
    }

    static func residentKiB(pid: pid_t) -> Int? { field("VmRSS", in: read("/proc/\(pid)/status")) }

    /// Voluntary + involuntary context switches of every thread of the process, and the thread count.
    static func contextSwitches(pid: pid_t) -> (switches: Int, threads: Int) {
        let threads = threadIDs(pid: pid)
        let total = threads.reduce(0) { total, thread in
            let text = read("/proc/\(pid)/task/\(thread)/status")
            return total + (field("voluntary_ctxt_switches", in: text) ?? 0) + (field("nonvoluntary_ctxt_switches", in: text) ?? 0)
        }
        return (total, threads.count)
    }

    /// The same per thread: id, name (/proc/PID/task/TID/comm) and switches.
    static func contextSwitchesByThread(pid: pid_t) -> [(id: pid_t, name: String, switches: Int)] {
        threadIDs(pid: pid).map { thread in
            let text = read("/proc/\(pid)/task/\(thread)/status")
            let name = read("/proc/\(pid)/task/\(thread)/comm").filter { $0 != "\n" }
            return (thread, name, (field("voluntary_ctxt_switches", in: text) ?? 0) + (field("nonvoluntary_ctxt_switches", in: text) ?? 0))
        }
    }
}

/// What the whole machine's CPUs did (/proc/stat's first line), to tell how much other work ran
/// beside the benchmark: the load average moves too slowly to say that about one run.
struct MachineCPU {
    /// Time the CPUs spent running anything (user, nice, system, irq, softirq), in nanoseconds.
    var busy: UInt64 = 0
    /// Time the hypervisor ran something else instead (steal), in nanoseconds.
    var stolen: UInt64 = 0
    var wall: UInt64 = 0

    static func now() -> MachineCPU {
        let line = ProcStatus.read("/proc/stat").split(separator: "\n").first ?? ""
        let ticks = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        let nanosecondsPerTick = 1_000_000_000 / UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        func field(_ index: Int) -> UInt64 { index < ticks.count ? ticks[index] * nanosecondsPerTick : 0 }
        // user nice system idle iowait irq softirq steal
        return MachineCPU(busy: field(0) + field(1) + field(2) + field(5) + field(6), stolen: field(7), wall: MonotonicClock.nanoseconds)
    }

    /// The average number of CPUs other processes kept busy from `start` to `self`, given the
    /// CPU time the benchmark's own processes used meanwhile.
    func otherCPUs(since start: MachineCPU, ownNanoseconds: UInt64) -> Double {
        let busy = busy > start.busy ? busy - start.busy : 0
        let other = busy > ownNanoseconds ? busy - ownNanoseconds : 0
        return wall > start.wall ? Double(other) / Double(wall - start.wall) : 0
    }
}
