import FoldcamCore
import FoldcamPlatform

/// The demo fold cycle of `--simulate --sweep`: on each timer tick the next hinge angles go to
/// the daemon as ordinary inputs.
final class SweepDriver {
    private let timer: Timer
    private var steps: [[Double]]
    private var next = 0
    private let interval: Duration
    private(set) var running = false
    private var cyclesLeft: Int?
    private let deliver: ([Double]) -> Void
    var onFinished: (() -> Void)?
    private unowned let loop: EventLoop

    init(loop: EventLoop, rig: Rig, interval: Duration, cycles: Int?, deliver: @escaping ([Double]) -> Void) throws(SystemCallError) {
        timer = try Timer()
        steps = SweepPath(rig: rig, stepDegrees: 5).steps
        self.interval = interval
        cyclesLeft = cycles
        self.deliver = deliver
        self.loop = loop
        try loop.register(timer.descriptor) { [unowned self] _ in
            let ticks = self.timer.acknowledge()
            if ticks > 0 { self.tick() }
        }
    }

    /// The loop lets go of the timer (at stop).
    func detach() { loop.unregister(timer.descriptor) }

    /// A reloaded rig: its own fold cycle from the start, so no step is outside its hinges'
    /// ranges (the old path would feed angles the new rig drops). Stops if it has no hinge.
    func replaceRig(_ rig: Rig) {
        steps = SweepPath(rig: rig, stepDegrees: 5).steps
        next = 0
        if running && steps.isEmpty {
            running = false
            timer.cancel()
        }
    }

    /// Starts or stops; false when there is nothing to sweep.
    @discardableResult
    func set(running: Bool) -> Bool {
        guard !steps.isEmpty else { return false }
        self.running = running
        if running {
            try? timer.schedule(after: interval, repeating: interval)
        } else {
            timer.cancel()
        }
        return true
    }

    private func tick() {
        guard running else { return }
        deliver(steps[next])
        next += 1
        if next == steps.count {
            next = 0
            if let left = cyclesLeft {
                cyclesLeft = left - 1
                if left - 1 <= 0 {
                    set(running: false)
                    onFinished?()
                }
            }
        }
    }
}

/// A fold cycle: all hinges from their initial angles down to their minimum, up to their
/// maximum, and back to the initial angles, in steps of a few degrees.
struct SweepPath {
    let steps: [[Double]]

    init(rig: Rig, stepDegrees: Double) {
        guard !rig.hinges.isEmpty else {
            steps = []
            return
        }
        let initial = rig.hinges.map(\.initial)
        let minimum = rig.hinges.map(\.minimum)
        let maximum = rig.hinges.map(\.maximum)
        var steps: [[Double]] = []
        for (from, to) in [(initial, minimum), (minimum, maximum), (maximum, initial)] {
            let span = zip(from, to).map { abs($1 - $0) }.max() ?? 0
            guard span > 0 else { continue }
            let count = max(1, Int((span / stepDegrees).rounded(.up)))
            for step in 1...count {
                let t = Double(step) / Double(count)
                steps.append(zip(from, to).map { $0 + ($1 - $0) * t })
            }
        }
        self.steps = steps
    }
}
