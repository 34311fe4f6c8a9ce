import CLinuxShims
import Glibc

/// Which CPUs the round-trip client and the servers run on. On a virtual machine a wake-up that
/// crosses CPUs costs an inter-processor interrupt and may have to wake an idle virtual CPU,
/// which can triple a round trip, and the scheduler's choice changes from run to run. Both
/// placements are therefore measured explicitly, the same for the echo server and the daemon.
enum Placement: CaseIterable {
    case sameCPU
    case separateCPUs

    var label: String {
        switch self {
        case .sameCPU: "same CPU"
        case .separateCPUs: "separate CPUs"
        }
    }

    var key: String {
        switch self {
        case .sameCPU: "sameCPU"
        case .separateCPUs: "separateCPUs"
        }
    }

    /// The client's CPU and the servers' CPU.
    var cpus: (client: Int, server: Int) { self == .sameCPU ? (0, 0) : (0, 1) }

    /// The placements this machine allows.
    static var available: [Placement] { onlineCPUs > 1 ? allCases : [.sameCPU] }

    static var onlineCPUs: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }
}

enum Affinity {
    /// Pins every thread of process `pid` (0: the calling thread only) to `cpu`; nil lets them
    /// run anywhere again.
    static func pin(_ pid: pid_t, to cpu: Int?) throws {
        let threads = pid == 0 ? [0] : ProcStatus.threadIDs(pid: pid)
        for thread in threads {
            var mask = [UInt64](repeating: 0, count: 16)  // 1,024 CPUs, the size of glibc's cpu_set_t
            if let cpu {
                mask[cpu / 64] = 1 << UInt64(cpu % 64)
            } else {
                for cpu in 0..<min(Placement.onlineCPUs, 1024) { mask[cpu / 64] |= 1 << UInt64(cpu % 64) }
            }
            let result = mask.withUnsafeBytes { cfoldcam_sched_setaffinity(thread, $0.count, $0.baseAddress) }
            guard result == 0 else { throw BenchError("sched_setaffinity(\(thread), cpu \(cpu.map(String.init) ?? "any")): \(errnoText())") }
        }
    }
}
