import FoldcamTestSupport
import Testing

/// What a simulate-mode daemon keeps mapped: libinput and the glib stack it links are loaded only
/// when hardware switches are read (FoldcamDevices' LibInput), so they cost simulate mode nothing.
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
}
