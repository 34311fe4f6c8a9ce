import FoldcamDevices
import FoldcamIO
import FoldcamPlatform

/// Told when a loopback label it waits for has been located.
protocol LoopbackWaiter: AnyObject {
    func loopbackLocated(_ label: String)
}

/// Which v4l2loopback node carries each configured card label. Locating opens the candidate
/// nodes, so it never runs on the event loop: on hardware the device thread does it with its
/// first inventory (`DeviceSettings.locateLoopbacks`, answered by `DeviceUpdate.loopbacks`);
/// in simulation, which has no device thread, a worker of this directory does. A camera
/// service whose label is not located yet waits for it (`LoopbackWaiter`).
final class LoopbackDirectory {
    enum Lookup: Equatable {
        /// Located: the node, or nil when no loopback carries the label.
        case located(String?)
        case unknown
    }

    private struct Answer: Sendable {
        var asked: [String]
        var found: [String: String]
    }

    private var known: Set<String> = []
    private var found: [String: String] = [:]
    private var waiters: [(label: String, waiter: () -> LoopbackWaiter?)] = []
    /// Simulation's searches: a worker, its answers, and the loop they come back through.
    private var search: (worker: Worker, answers: Mailbox<Answer>, loop: EventLoop)?
    private var searching: Set<String> = []

    func lookup(_ label: String) -> Lookup {
        known.contains(label) ? .located(found[label]) : .unknown
    }

    /// The labels of `labels` not located yet, in order, once each.
    func unknown(among labels: [String]) -> [String] {
        var seen: Set<String> = []
        return labels.filter { !known.contains($0) && seen.insert($0).inserted }
    }

    /// What the device layer found for `asked`; wakes the services waiting for those labels.
    func record(asked: [String], found nodes: [String: String]) {
        for label in asked {
            known.insert(label)
            found[label] = nodes[label]
            searching.remove(label)
        }
        let ready = waiters.filter { asked.contains($0.label) }
        waiters.removeAll { asked.contains($0.label) }
        for entry in ready { entry.waiter()?.loopbackLocated(entry.label) }
    }

    /// Asks to be told once `label` is located (once; held weakly).
    func wait(for label: String, _ waiter: LoopbackWaiter) {
        waiters.append((label, { [weak waiter] in waiter }))
    }

    /// Simulation: locates `labels` on this directory's worker; the answer comes back through
    /// `loop` (or `awaitSearches` before the loop runs).
    func search(_ labels: [String], loop: EventLoop) throws(SystemCallError) {
        let labels = unknown(among: labels).filter { !searching.contains($0) }
        guard !labels.isEmpty else { return }
        let search: (worker: Worker, answers: Mailbox<Answer>, loop: EventLoop)
        if let running = self.search { search = running } else { search = try startSearching(loop: loop) }
        searching.formUnion(labels)
        let answers = search.answers
        search.worker.submit {
            var found: [String: String] = [:]
            for label in labels { found[label] = LoopbackLocator.find(label: label) }
            answers.post(Answer(asked: labels, found: found))
        }
    }

    /// Start-up only, before the loop serves: waits for the searches asked so far.
    func awaitSearches() {
        guard let search else { return }
        search.worker.waitForSubmitted()
        receiveAnswers()
    }

    /// The loop lets go of the answers; the worker ends.
    func stop() {
        guard let search else { return }
        search.loop.unregister(search.answers.descriptor)
        search.worker.stop()
        self.search = nil
    }

    private func startSearching(loop: EventLoop) throws(SystemCallError) -> (worker: Worker, answers: Mailbox<Answer>, loop: EventLoop) {
        let started = (worker: try Worker(name: "foldcam-locate"), answers: try Mailbox<Answer>(), loop: loop)
        try loop.register(started.answers.descriptor) { [unowned self] _ in self.receiveAnswers() }
        search = started
        return started
    }

    private func receiveAnswers() {
        for answer in search?.answers.drain() ?? [] { record(asked: answer.asked, found: answer.found) }
    }
}
