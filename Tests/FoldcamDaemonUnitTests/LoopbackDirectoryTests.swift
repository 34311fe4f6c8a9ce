@testable import FoldcamDaemon
import Testing

/// `LoopbackDirectory`: the loopback nodes the device layer located, and who waits for them.
@Suite("loopback directory")
struct LoopbackDirectoryTests {
    final class Waiter: LoopbackWaiter {
        var told: [String] = []
        func loopbackLocated(_ label: String) { told.append(label) }
    }

    @Test("a label is unknown until the device layer answers; a label it did not find has no node")
    func lookups() {
        let directory = LoopbackDirectory()
        #expect(directory.lookup("foldcam") == .unknown)
        #expect(directory.unknown(among: ["foldcam", "rear", "foldcam"]) == ["foldcam", "rear"])
        directory.record(asked: ["foldcam", "rear"], found: ["foldcam": "/dev/video9"])
        #expect(directory.lookup("foldcam") == .located("/dev/video9"))
        #expect(directory.lookup("rear") == .located(nil))
        #expect(directory.unknown(among: ["foldcam", "rear", "new"]) == ["new"])
    }

    @Test("a waiter is told once, when its own label is answered")
    func waiters() {
        let directory = LoopbackDirectory()
        let front = Waiter(), rear = Waiter()
        directory.wait(for: "front", front)
        directory.wait(for: "rear", rear)
        directory.record(asked: ["rear"], found: [:])
        #expect(front.told.isEmpty)
        #expect(rear.told == ["rear"])
        directory.record(asked: ["front", "rear"], found: ["front": "/dev/video9"])
        #expect(front.told == ["front"])
        #expect(rear.told == ["rear"])
    }

    @Test("a waiter that went away is not kept alive")
    func weakWaiters() {
        let directory = LoopbackDirectory()
        weak var gone: Waiter?
        do {
            let waiter = Waiter()
            gone = waiter
            directory.wait(for: "front", waiter)
        }
        #expect(gone == nil)
        directory.record(asked: ["front"], found: [:])
    }
}
