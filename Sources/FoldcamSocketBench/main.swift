import FoldcamIO
import FoldcamPlatform
import Glibc

// foldcam-socket-bench: the daemon's socket figures (docs/benchmarks.md, "Socket").

let spec = CommandLineSpec(
    program: "foldcam-socket-bench",
    summary: """
        Starts foldcamd --simulate (release build, found next to this executable unless --daemon is given) and a minimal \
        echo server on Unix sockets in a temporary directory, then measures: round trip (a directions request -> reply, \
        p50/p99, against the echo server's round trip of the same request line in the same run; target ratio <= 1.2 on one \
        CPU; client and servers pinned to one CPU, then to separate CPUs); fan-out (simulate.hinge -> each of N subscribers \
        has the event, p50/p99 over every subscriber and change, target p99 < 5 ms; and to the last of them, per change); idle RSS (VmRSS of a fresh daemon after start-up, \
        no sweep; target < 12 MB); idle wake-ups (context switches of all the daemon's threads over --idle-seconds; target \
        none), with each thread's. The load average is printed before and after, and how many CPUs other processes kept \
        busy while timing (/proc/stat less the benchmark's own processes); at 0.2 or more the run is marked as taken under load. Build both in release first: swift build -c release \
        --product foldcamd && swift build -c release --product foldcam-socket-bench. Targets are reported, not asserted.
        """,
    commands: [
        CommandSpec("run", section: "modes", help: "measure and print the figures"),
        CommandSpec("--echo-server", arguments: "PATH", section: "modes", help: "internal: serve as the echo server on PATH (the benchmark starts itself so)"),
        CommandSpec("--help", aliases: ["-h"], section: "modes", help: "print this text"),
    ],
    options: [
        OptionSpec("--daemon", kind: .value("PATH"), commands: ["run"], help: "the foldcamd to measure (default: the one next to this executable)"),
        OptionSpec("--round-trips", kind: .value("N"), commands: ["run"], help: "round trips per placement (default 20000)"),
        OptionSpec("--subscribers", kind: .value("N"), commands: ["run"], help: "subscribers for the fan-out (default 1000)"),
        OptionSpec("--changes", kind: .value("N"), commands: ["run"], help: "hinge changes for the fan-out (default 300)"),
        OptionSpec("--idle-seconds", kind: .value("N"), commands: ["run"], help: "how long to count idle wake-ups (default 10)"),
        OptionSpec("--idle-config", kind: .value("PATH"), commands: ["run"], help: "measure only the idle figures, of a hardware-mode daemon started with this configuration (the e2e guest's bench/idle-hardware.sh: real sensors and a virtual camera nobody reads)"),
        OptionSpec("--json", commands: ["run"], help: "print the figures as JSON"),
    ],
    defaultCommand: "run",
    exitCodes: [ExitCode(0, "the figures were printed"), ExitCode(1, "the benchmark failed"), ExitCode(2, "bad arguments")]
)

struct Options {
    var daemon: String?
    var roundTrips = 20_000
    var subscribers = 1000
    var changes = 300
    var idleSeconds = 10
    var idleConfig: String?
    var json = false
}

func parseOptions() -> Options {
    do {
        var parsed = try CommandLineParser.parse(Array(CommandLine.arguments.dropFirst()), spec)
        switch parsed.command {
        case "--help":
            print(UsageText.render(spec))
            exit(0)
        case "--echo-server":
            let path = try parsed.requirePositional("the echo server's socket path")
            try parsed.finish()
            exit(EchoServer.run(path: path))
        default:
            try parsed.finish()
            func number(_ name: String) throws(UsageError) -> Int? {
                guard let text = parsed.value(name) else { return nil }
                guard let value = Int(text), value > 0 else { throw UsageError("\(name) needs a positive whole number, got \"\(text)\"") }
                return value
            }
            var options = Options()
            options.daemon = parsed.value("--daemon")
            options.roundTrips = try number("--round-trips") ?? options.roundTrips
            options.subscribers = try number("--subscribers") ?? options.subscribers
            options.changes = try number("--changes") ?? options.changes
            options.idleSeconds = try number("--idle-seconds") ?? options.idleSeconds
            options.idleConfig = parsed.value("--idle-config")
            options.json = parsed.flag("--json")
            return options
        }
    } catch {
        StandardError.write("foldcam-socket-bench: \(error)\n")
        exit(2)
    }
}

func selfExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
}

func daemonExecutable(_ options: Options) throws -> String {
    if let path = options.daemon { return path }
    let me = selfExecutable()
    let candidate = String(me[..<(me.lastIndex(of: "/") ?? me.startIndex)]) + "/foldcamd"
    guard access(candidate, X_OK) == 0 else {
        throw BenchError("no foldcamd next to \(me); build it in release (swift build -c release) or pass --daemon PATH")
    }
    return candidate
}

/// Round trips in one CPU placement.
struct RoundTrips {
    var placement: Placement
    var echo = Percentiles([])
    var directions = Percentiles([])
    /// CPU time per request of the echo server and of the daemon.
    var echoCPU = 0.0
    var directionsCPU = 0.0
}

struct Results {
    var roundTrips: [RoundTrips] = []
    /// Per change: from the request to the last subscriber's event.
    var fanOut = Percentiles([])
    /// Every subscriber's delay for every change.
    var fanOutEach = Percentiles([])
    /// The daemon's CPU time per hinge change.
    var changeCPU = 0.0
    /// The daemon's context switches per hinge change: far above one means it was preempted
    /// while sending (by the subscribers it woke, on its CPU).
    var changeSwitches = 0.0
    var subscribers = 0
    var idleRSSKiB = 0
    var idleSwitches = 0
    var idleThreads = 0
    var idleSeconds = 0
    /// Context switches of each thread over the idle window, by thread name.
    var idleByThread: [(name: String, switches: Int)] = []
    var loadAverage: [Double] = []
    /// Before anything was started: what else the machine was doing.
    var loadAverageBefore: [Double] = []
    /// CPUs kept busy by other processes, on average, during the timed parts (round trips and
    /// fan-out): what makes a run one "taken under load".
    var otherCPUs = 0.0
}

/// The targets of issue 29 (docs/benchmarks.md, "Socket").
enum Target {
    static let roundTripRatio = 1.2
    static let fanOutP99Nanoseconds = 5_000_000.0
    static let idleMegabytes = 12.0
    static let idleHardwareMegabytes = 14.0
}

/// Whether other processes kept a fifth of a CPU or more busy, on average, while the figures
/// were timed: then wall-clock figures are inflated by them.
func underLoad(_ results: Results) -> Bool {
    results.otherCPUs >= 0.2
}

/// This process's CPU time, the subscriber threads that ended included (getrusage; the
/// per-thread schedstat files go with their threads).
func ownCPUNanoseconds() -> UInt64 {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let microseconds = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
    return UInt64(max(microseconds, 0)) * 1000
}

func loadAverage() -> [Double] {
    var values = [0.0, 0.0, 0.0]
    let count = values.withUnsafeMutableBufferPointer { getloadavg($0.baseAddress!, 3) }
    return count == 3 ? values : []
}

func runBench(_ options: Options) throws -> Results {
    try raiseDescriptorLimit(to: options.subscribers + 64)
    var template = Array("/tmp/foldcam-socket-bench.XXXXXX".utf8CString)
    guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { throw BenchError("mkdtemp failed") }
    let directory = String(cString: created)
    defer {
        for name in ["foldcam.sock", "echo.sock", "foldcam.json", "daemon.log", "idle.log", "echo.log", "idle.sock"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }
    let daemonPath = try daemonExecutable(options)
    var results = Results()
    results.loadAverageBefore = loadAverage()
    results.subscribers = options.subscribers
    results.idleSeconds = options.idleSeconds

    // Idle figures first, on a fresh daemon nobody talks to after the start-up probe.
    do {
        let socket = directory + "/idle.sock"
        let mode = options.idleConfig.map { ["--config", $0] } ?? ["--simulate"]
        let idle = try Child(executable: daemonPath, arguments: mode + ["--quiet", "--socket", socket], stderrPath: directory + "/idle.log")
        defer { idle.stop() }
        try idle.waitUntilServing(socket, probe: Array(#"{"id":0,"method":"hello"}"#.utf8) + [10])
        usleep(1_000_000)
        results.idleRSSKiB = ProcStatus.residentKiB(pid: idle.pid) ?? -1
        note("idle daemon: VmRSS \(results.idleRSSKiB) KiB; counting wake-ups for \(options.idleSeconds) s")
        let before = ProcStatus.contextSwitches(pid: idle.pid)
        let threadsBefore = ProcStatus.contextSwitchesByThread(pid: idle.pid)
        usleep(UInt32(options.idleSeconds) * 1_000_000)
        let after = ProcStatus.contextSwitches(pid: idle.pid)
        let threadsAfter = ProcStatus.contextSwitchesByThread(pid: idle.pid)
        results.idleSwitches = after.switches - before.switches
        results.idleThreads = after.threads
        results.idleByThread = threadsAfter.map { thread in
            (thread.name, thread.switches - (threadsBefore.first { $0.id == thread.id }?.switches ?? 0))
        }
    }
    if options.idleConfig != nil {
        results.loadAverage = loadAverage()
        return results
    }

    // The loaded daemon: room for the subscribers.
    let socketPath = directory + "/foldcam.sock"
    let config = directory + "/foldcam.json"
    let configText = #"{"rig": "duo", "maxClients": \#(options.subscribers + 16), "logLevel": "warning"}"#
    try FileContents.replaceAtomically(Array(configText.utf8), directory: directory, name: "foldcam.json")
    let daemon = try Child(executable: daemonPath, arguments: ["--simulate", "--quiet", "--socket", socketPath, "--config", config], stderrPath: directory + "/daemon.log")
    defer { daemon.stop() }
    let echoPath = directory + "/echo.sock"
    let echo = try Child(executable: selfExecutable(), arguments: ["--echo-server", echoPath], stderrPath: directory + "/echo.log")
    defer { echo.stop() }
    let request = Array(#"{"id":1,"method":"directions"}"#.utf8) + [10]
    try daemon.waitUntilServing(socketPath, probe: request)
    try echo.waitUntilServing(echoPath, probe: request)

    let daemonClient = try LineSocket(path: socketPath)
    let echoClient = try LineSocket(path: echoPath)
    let reply = try daemonClient.roundTrip(request)
    guard reply.starts(with: Array(#"{"id":1,"result":{"#.utf8)) else {
        throw BenchError("unexpected directions reply: \(String(decoding: reply, as: UTF8.self))")
    }
    let machineBefore = MachineCPU.now()
    let ownBefore = ownCPUNanoseconds() + ProcStatus.cpuNanoseconds(pid: echo.pid) + ProcStatus.cpuNanoseconds(pid: daemon.pid)
    for placement in Placement.available {
        let cpus = placement.cpus
        try Affinity.pin(0, to: cpus.client)
        try Affinity.pin(echo.pid, to: cpus.server)
        try Affinity.pin(daemon.pid, to: cpus.server)
        note("round trips, \(placement.label): \(options.roundTrips) each, echo and directions, alternating blocks of 500")
        results.roundTrips.append(try measureRoundTrips(placement, request: request, count: options.roundTrips, echo: (echoClient, echo.pid), daemon: (daemonClient, daemon.pid)))
    }
    for pid in [0, echo.pid, daemon.pid] { try Affinity.pin(pid, to: nil) }

    // Fan-out: N subscribers to `posture`, one hinge change at a time.
    note("fan-out: connecting \(options.subscribers) subscribers")
    var subscribers: [LineSocket] = []
    let subscribe = Array(#"{"id":1,"method":"subscribe","params":{"topics":["posture"]}}"#.utf8) + [10]
    for _ in 0..<options.subscribers {
        let socket = try LineSocket(path: socketPath)
        _ = try socket.roundTrip(subscribe)
        _ = try socket.readLine()  // the current value
        subscribers.append(socket)
    }
    let warmUp = 20
    let total = warmUp + options.changes
    let threads = SubscriberThreads(sockets: subscribers, threadCount: 4, changes: total)
    try threads.start()
    note("fan-out: \(total) hinge changes (\(warmUp) warm-up) to \(options.subscribers) subscribers on 4 threads")
    var starts: [UInt64] = []
    var changeCPUBefore: UInt64 = 0
    var switchesBefore = 0
    for change in 0..<total {
        // 60°, 60.5°, … inside halfOpen: each change moves the hinge (one posture event each).
        let angle = 60 + Double(change % 100) / 2
        let line = Array(#"{"id":2,"method":"simulate.hinge","params":{"hinge":"fold","angle":\#(angle)}}"#.utf8) + [10]
        if change == warmUp {
            changeCPUBefore = ProcStatus.cpuNanoseconds(pid: daemon.pid)
            switchesBefore = ProcStatus.contextSwitches(pid: daemon.pid).switches
        }
        let start = MonotonicClock.nanoseconds
        try daemonClient.send(line)
        starts.append(start)
        _ = try daemonClient.readLine()
        let expected = (change + 1) * options.subscribers
        let deadline = MonotonicClock.nanoseconds + 10_000_000_000
        while threads.arrivals.load(ordering: .sequentiallyConsistent) < expected {
            if threads.failures.load(ordering: .sequentiallyConsistent) > 0 || MonotonicClock.nanoseconds > deadline {
                throw BenchError("change \(change): only \(threads.arrivals.load(ordering: .sequentiallyConsistent) - change * options.subscribers) of \(options.subscribers) subscribers got the event")
            }
            sched_yield()
        }
        usleep(2_000)  // let the daemon and the threads settle before the next change
    }
    results.changeCPU = Double(ProcStatus.cpuNanoseconds(pid: daemon.pid) - changeCPUBefore) / Double(options.changes)
    results.changeSwitches = Double(ProcStatus.contextSwitches(pid: daemon.pid).switches - switchesBefore) / Double(options.changes)
    threads.join()
    results.fanOut = Percentiles((warmUp..<total).map { threads.lastArrival(ofChange: $0) - starts[$0] })
    results.fanOutEach = Percentiles(threads.delays(from: warmUp, starts: starts))
    let own = ownCPUNanoseconds() + ProcStatus.cpuNanoseconds(pid: echo.pid) + ProcStatus.cpuNanoseconds(pid: daemon.pid) - ownBefore
    results.otherCPUs = MachineCPU.now().otherCPUs(since: machineBefore, ownNanoseconds: own)
    results.loadAverage = loadAverage()
    return results
}

/// Round trips of `request` to both servers, alternating blocks so both see the same machine load.
func measureRoundTrips(_ placement: Placement, request: [UInt8], count: Int, echo: (LineSocket, pid_t), daemon: (LineSocket, pid_t)) throws -> RoundTrips {
    var echoSamples: [UInt64] = []
    var daemonSamples: [UInt64] = []
    echoSamples.reserveCapacity(count)
    daemonSamples.reserveCapacity(count)
    for _ in 0..<2000 {  // warm-up, also after moving to other CPUs
        _ = try echo.0.roundTrip(request)
        _ = try daemon.0.roundTrip(request)
    }
    let echoCPUBefore = ProcStatus.cpuNanoseconds(pid: echo.1)
    let daemonCPUBefore = ProcStatus.cpuNanoseconds(pid: daemon.1)
    while daemonSamples.count < count {
        let block = min(500, count - daemonSamples.count)
        for _ in 0..<block {
            let start = MonotonicClock.nanoseconds
            _ = try echo.0.roundTrip(request)
            echoSamples.append(MonotonicClock.nanoseconds - start)
        }
        for _ in 0..<block {
            let start = MonotonicClock.nanoseconds
            _ = try daemon.0.roundTrip(request)
            daemonSamples.append(MonotonicClock.nanoseconds - start)
        }
    }
    var result = RoundTrips(placement: placement)
    result.echoCPU = Double(ProcStatus.cpuNanoseconds(pid: echo.1) - echoCPUBefore) / Double(echoSamples.count)
    result.directionsCPU = Double(ProcStatus.cpuNanoseconds(pid: daemon.1) - daemonCPUBefore) / Double(daemonSamples.count)
    result.echo = Percentiles(echoSamples)
    result.directions = Percentiles(daemonSamples)
    return result
}

func report(_ results: Results, _ options: Options) {
    let idleMB = Double(results.idleRSSKiB) / 1024
    if options.json {
        print("""
            {"roundTrip": {\(results.roundTrips.map { trips in
                "\"\(trips.placement.key)\": {\"echo\": {\"p50Ns\": \(Int(trips.echo.p50)), \"p99Ns\": \(Int(trips.echo.p99))}, " +
                "\"directions\": {\"p50Ns\": \(Int(trips.directions.p50)), \"p99Ns\": \(Int(trips.directions.p99))}, " +
                "\"ratioP50\": \(trips.directions.p50 / trips.echo.p50), \"ratioP99\": \(trips.directions.p99 / trips.echo.p99), \"samples\": \(trips.directions.count), " +
                "\"cpuPerRequestNs\": {\"echo\": \(Int(trips.echoCPU)), \"directions\": \(Int(trips.directionsCPU))}}"
            }.joined(separator: ", "))}, \
            "fanOut": {"subscribers": \(results.subscribers), "p50Ns": \(Int(results.fanOutEach.p50)), "p99Ns": \(Int(results.fanOutEach.p99)), "maxNs": \(Int(results.fanOutEach.maximum)), "deliveries": \(results.fanOutEach.count), \
            "last": {"p50Ns": \(Int(results.fanOut.p50)), "p99Ns": \(Int(results.fanOut.p99)), "maxNs": \(Int(results.fanOut.maximum))}, "changes": \(results.fanOut.count), "daemonCPUPerChangeNs": \(Int(results.changeCPU)), "daemonContextSwitchesPerChange": \(results.changeSwitches)}, \
            "idle": {"rssKiB": \(results.idleRSSKiB), "contextSwitches": \(results.idleSwitches), "seconds": \(results.idleSeconds), "threads": \(results.idleThreads), \
            "byThread": {\(results.idleByThread.map { "\"\($0.name)\": \($0.switches)" }.joined(separator: ", "))}}, \
            "loadAverageBefore": \(results.loadAverageBefore), "loadAverage": \(results.loadAverage), "otherCPUs": \(results.otherCPUs), "underLoad": \(underLoad(results))}
            """)
        return
    }
    func verdict(_ ok: Bool) -> String { ok ? "PASS" : "MISS" }
    let cpus = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    func loads(_ values: [Double]) -> String { values.map { String(($0 * 100).rounded() / 100) }.joined(separator: " ") }
    print("foldcam-socket-bench: \(cpus) CPUs, load average \(loads(results.loadAverageBefore)) before, \(loads(results.loadAverage)) after; other processes kept \((results.otherCPUs * 100).rounded() / 100) CPUs busy while timing\(underLoad(results) ? " (TAKEN UNDER LOAD)" : "")")
    print("")
    for trips in results.roundTrips {
        let ratio50 = trips.directions.p50 / trips.echo.p50
        let ratio99 = trips.directions.p99 / trips.echo.p99
        print("  round trip, \(trips.placement.label) (\(trips.directions.count) each)")
        print("".padding(33) + pad("p50") + "  " + pad("p99"))
        print("  baseline: echo server          \(pad(microseconds(trips.echo.p50)))  \(pad(microseconds(trips.echo.p99)))")
        print("  directions request             \(pad(microseconds(trips.directions.p50)))  \(pad(microseconds(trips.directions.p99)))")
        print("  ratio directions / echo        \(pad(ratioText(ratio50)))  \(pad(ratioText(ratio99)))   target <= \(Target.roundTripRatio)×\(trips.placement == .sameCPU ? "" : " (judged on one CPU)"): \(verdict(ratio50 <= Target.roundTripRatio)) (p50), \(verdict(ratio99 <= Target.roundTripRatio)) (p99)")
        print("  server CPU time per request    echo \(microseconds(trips.echoCPU)), directions \(microseconds(trips.directionsCPU)) (\(ratioText(trips.directionsCPU / trips.echoCPU)); less inflated by other load than wall time)")
        print("")
    }
    if options.idleConfig == nil {
        print("  hinge change -> each of \(results.subscribers) subscribers (\(results.fanOut.count) changes, \(results.fanOutEach.count) deliveries)")
        print("                                 p50 \(milliseconds(results.fanOutEach.p50))   p99 \(milliseconds(results.fanOutEach.p99))   max \(milliseconds(results.fanOutEach.maximum))   target p99 < 5 ms: \(verdict(results.fanOutEach.p99 < Target.fanOutP99Nanoseconds))")
        print("  hinge change -> last of them   p50 \(milliseconds(results.fanOut.p50))   p99 \(milliseconds(results.fanOut.p99))   max \(milliseconds(results.fanOut.maximum))   (the slowest delivery of each change)")
        print("  daemon CPU time per change     \(milliseconds(results.changeCPU)) (request, one event encoded once, \(results.subscribers) sends); context switches per change \((results.changeSwitches * 10).rounded() / 10)")
        print("")
        print("  idle daemon (no sweep, no clients)")
    } else {
        print("foldcam-socket-bench: idle hardware-mode daemon (--config \(options.idleConfig ?? "")), load average \(loads(results.loadAverage))")
    }
    // Issue 29: simulate mode < 12 MB, hardware mode (a virtual camera, sensors) <= 14 MB.
    let idleTarget = options.idleConfig == nil ? "< \(Int(Target.idleMegabytes)) MB" : "<= \(Int(Target.idleHardwareMegabytes)) MB"
    let idleMet = options.idleConfig == nil ? idleMB < Target.idleMegabytes : idleMB <= Target.idleHardwareMegabytes
    print("    VmRSS after start-up         \(String((idleMB * 10).rounded() / 10)) MB (\(results.idleRSSKiB) KiB)   target \(idleTarget): \(verdict(idleMet))")
    print("    wake-ups in \(results.idleSeconds) s             \(results.idleSwitches) context switches over \(results.idleThreads) thread(s)   target none: \(verdict(results.idleSwitches == 0))")
    print("    by thread                    \(results.idleByThread.map { "\($0.name) \($0.switches)" }.joined(separator: ", "))")
}

func pad(_ text: String) -> String { String(repeating: " ", count: max(0, 11 - text.count)) + text }

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}

let options = parseOptions()
do {
    let results = try runBench(options)
    report(results, options)
} catch {
    StandardError.write("foldcam-socket-bench: \(error)\n")
    exit(1)
}
