import Glibc

/// Bytes of heap in use, from glibc's `mallinfo2().uordblks` (every arena; blocks served by
/// mmap are in `hblkhd` and counted too).
///
/// Swift's Glibc module does not import <malloc.h>, so the function is looked up with `dlsym`.
/// On x86-64 (System V ABI) a C function returning a struct larger than 16 bytes takes a hidden
/// pointer to the result in the first argument register and returns that pointer, so it is
/// called here as `(UnsafeMutableRawPointer) -> UnsafeMutableRawPointer`. Other architectures
/// pass that pointer differently (AArch64 uses x8), so there the figure is unavailable.
struct HeapMeter {
    /// `struct mallinfo2`: ten `size_t` fields.
    private typealias MallInfo2 = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
    private let mallinfo2: MallInfo2

    init?() {
        #if arch(x86_64)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "mallinfo2") else { return nil }
        mallinfo2 = unsafeBitCast(symbol, to: MallInfo2.self)
        #else
        return nil
        #endif
    }

    /// `uordblks + hblkhd`: bytes allocated by malloc and not yet freed.
    func bytesInUse() -> Int {
        // arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost
        var fields: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &fields) { _ = mallinfo2($0.baseAddress!) }
        return fields.7 + fields.4
    }
}

struct HeapResult {
    var iterations: Int
    var before: Int
    var after: Int
    /// Bytes in use after each `Progress.every` iterations (and at the end).
    var checkpoints: [(iterations: Int, bytes: Int)]

    var growth: Int { after - before }
}

/// Runs `body` `iterations` times after a warm-up and reads the heap before and after.
func measureHeap(_ meter: HeapMeter, iterations: Int, warmUp: Int, label: String, _ body: () -> Void) -> HeapResult {
    Progress.note("\(label): \(warmUp) warm-up + \(iterations) calls, heap read before and after")
    for _ in 0..<warmUp { body() }
    var checkpoints: [(iterations: Int, bytes: Int)] = []
    checkpoints.reserveCapacity(iterations / Progress.every + 2)
    let before = meter.bytesInUse()
    for index in 1...max(1, iterations) {
        body()
        if index % Progress.every == 0 && index < iterations {
            let bytes = meter.bytesInUse()
            checkpoints.append((index, bytes))
            Progress.note("\(label): \(index) calls, heap in use \(bytes) bytes (\(signed(bytes - before)))")
        }
    }
    let after = meter.bytesInUse()
    checkpoints.append((max(1, iterations), after))
    return HeapResult(iterations: max(1, iterations), before: before, after: after, checkpoints: checkpoints)
}

func signed(_ value: Int) -> String { value >= 0 ? "+\(value)" : "\(value)" }
