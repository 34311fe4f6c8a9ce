@testable import FoldcamPlatform
import Foundation
import Glibc
import Testing

/// inotify open/close counting and /proc holders, against real files and a real child process
/// (how the daemon tells that someone reads its loopback on v4l2loopback 0.12.7).
@Suite struct OpenCloseWatchTests {
    @Test func opensAndClosesByAnyoneAreCounted() throws {
        let directory = try RealCallTests.temporaryDirectory()
        defer { _ = Glibc.system("rm -rf '\(directory)'") }
        let path = directory + "/node"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let watch = try OpenCloseWatch(path: path)
        #expect(watch.drain() == .init())
        let first = try FileDescriptor.open(path, .readOnly)
        var counts = watch.drain()
        #expect(counts.opens == 1 && counts.closes == 0 && !counts.overflowed)
        let second = try FileDescriptor.open(path, .readWrite)
        first.close()
        second.close()
        counts = drain(watch, untilCloses: 2)
        #expect(counts.opens == 1 && counts.closes == 2)
        #expect(watch.drain() == .init(), "drained")
    }

    /// Drains until `closes` closes arrived (an event: the watch's descriptor readable), 10 s at
    /// most. A close can come late: a process another test is spawning holds copies of this
    /// process's descriptors until its exec, and the kernel reports the close of the last copy.
    private func drain(_ watch: OpenCloseWatch, untilCloses closes: Int) -> OpenCloseWatch.Counts {
        var total = watch.drain()
        let deadline = Date().addingTimeInterval(10)
        while total.closes < closes && Date() < deadline {
            var ready = pollfd(fd: watch.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 100)
            let more = watch.drain()
            total.opens += more.opens
            total.closes += more.closes
            total.overflowed = total.overflowed || more.overflowed
        }
        return total
    }

    /// Why the daemon counts holders again on every wake-up rather than keeping a balance:
    /// inotify merges identical events nobody has read yet, so two opens in a row read as one.
    @Test func identicalUnreadEventsAreMerged() throws {
        let directory = try RealCallTests.temporaryDirectory()
        defer { _ = Glibc.system("rm -rf '\(directory)'") }
        let path = directory + "/node"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let watch = try OpenCloseWatch(path: path)
        let first = try FileDescriptor.open(path, .readOnly)
        let second = try FileDescriptor.open(path, .readOnly)
        #expect(watch.drain().opens == 1)
        first.close()
        second.close()
    }

    @Test func holdersAreOtherProcessesNotThisOne() throws {
        let directory = try RealCallTests.temporaryDirectory()
        defer { _ = Glibc.system("rm -rf '\(directory)'") }
        let path = directory + "/node"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let mine = try FileDescriptor.open(path, .readOnly)
        defer { mine.close() }
        #expect(OpenFileHolders.count(path: path).descriptors == 0, "this process's own descriptors do not count")
        // A child holding it twice; "ready" once both are open.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        // One through a symbolic link: the kernel names it by the file it resolves to.
        #expect(symlink(path, directory + "/link") == 0)
        child.arguments = ["-c", "exec 3<'\(path)' 4<'\(directory)/link'; exec sleep 30"]
        try child.run()
        // SIGKILL: the test process may block SIGTERM (signalfd), and children inherit that.
        defer { kill(child.processIdentifier, SIGKILL); child.waitUntilExit() }
        // Waits for the count to be the child's two (an event: the count), 10 s at most. It can
        // pass 2 for a moment: a process another test is spawning holds copies of this
        // process's descriptors, `mine` among them, until its exec closes them.
        func settledCount(_ path: String) -> (descriptors: Int, hidden: Int) {
            var count = OpenFileHolders.count(path: path)
            let deadline = Date().addingTimeInterval(10)
            while count.descriptors != 2 && count.hidden == 0 && Date() < deadline {
                usleep(10_000)
                count = OpenFileHolders.count(path: path)
            }
            return (count.descriptors, count.hidden)
        }
        let count = settledCount(path)
        if OpenFileHolders.seesOtherUsers || getuid() == 0 {
            #expect(count.descriptors == 2)
            #expect(settledCount(directory + "/link").descriptors == 2, "asked by the link's name")
        } else {
            #expect(count.descriptors == 2 || count.hidden > 0)
        }
    }
}
