import FoldcamTestSupport
import Testing

/// What a simulate-mode daemon keeps mapped: libinput and the glib stack it links are loaded only
/// when hardware switches are read (FoldcamDevices' LibInput), libv4l2 only when a camera is
/// probed (FoldcamV4L2's LibV4L2), libpng only for a snapshot (FoldcamCapture's LibPNG), so they
/// cost simulate mode nothing until it needs them.
@Suite("foldcamd footprint")
struct FootprintTests {
    @Test("a simulate daemon maps neither libinput nor glib")
    func simulateModeLeavesLibInputUnloaded() throws {
        let daemon = try RunningDaemon()
        let maps = readTextFile("/proc/\(daemon.pid)/maps")
        #expect(!maps.isEmpty, "/proc/\(daemon.pid)/maps is readable")
        let libraries = Set(maps.split(separator: "\n").compactMap { $0.split(separator: "/").last.map(String.init) })
        let unwanted = libraries.filter { $0.hasPrefix("libinput.") || $0.hasPrefix("libglib-") || $0.hasPrefix("libwacom.") }
        #expect(unwanted.isEmpty, "loaded although simulate mode reads no switch: \(unwanted.sorted())")
        #expect(daemon.stop() == 0, "stderr:\n\(daemon.stderr)")
    }

    @Test("a simulate daemon maps libv4l2 never and libpng only once a snapshot is asked for")
    func probeAndSnapshotLibrariesLoadOnDemand() throws {
        let daemon = try RunningDaemon()
        let before = Self.libraries(of: daemon.pid)
        let eager = before.filter { $0.hasPrefix("libv4l2.") || $0.hasPrefix("libv4lconvert.") || $0.hasPrefix("libjpeg.") || $0.hasPrefix("libpng16.") }
        #expect(!before.isEmpty && eager.isEmpty, "loaded before anything needed them: \(eager.sorted())")
        let client = try daemon.connect()
        #expect(try client.result("snapshot")["png"]?.stringValue?.isEmpty == false, "the snapshot is a PNG")
        let after = Self.libraries(of: daemon.pid)
        #expect(after.contains { $0.hasPrefix("libpng16.") }, "libpng is mapped once a snapshot was encoded")
        #expect(!after.contains { $0.hasPrefix("libv4l2.") }, "simulate mode probes no camera")
        #expect(daemon.stop() == 0, "stderr:\n\(daemon.stderr)")
    }

    /// The file names of the shared objects mapped into `pid`.
    static func libraries(of pid: Int32) -> Set<String> {
        let maps = readTextFile("/proc/\(pid)/maps")
        return Set(maps.split(separator: "\n").compactMap { $0.split(separator: "/").last.map(String.init) })
    }
}
