import FoldcamCore
import Testing

/// `"sinks"`: which sinks carry the virtual cameras. The loopback alone by default; without it
/// foldcamd feeds no loopback. Bad lists are refused naming the element.
@Suite struct SinksConfigTests {
    @Test func theLoopbackIsTheDefault() throws {
        let config = try DaemonConfig.decode(json: "{}")
        #expect(config.sinks == [.loopback])
        #expect(config.feedsLoopback)
    }

    @Test(arguments: [
        (#"["pipewire"]"#, [DaemonConfig.SinkKind.pipewire], false),
        (#"["pipewire", "loopback"]"#, [.pipewire, .loopback], true),
    ])
    func sinksAreRead(list: String, sinks: [DaemonConfig.SinkKind], feedsLoopback: Bool) throws {
        let config = try DaemonConfig.decode(json: #"{"sinks": \#(list)}"#)
        #expect(config.sinks == sinks)
        #expect(config.feedsLoopback == feedsLoopback)
    }

    @Test(arguments: [
        (#"[]"#, "sinks: names no sink: give at least one of loopback, pipewire"),
        (#"["pipwire"]"#, #"sinks[0]: unknown sink "pipwire"; did you mean "pipewire"? (expected one of: loopback, pipewire)"#),
        (#"["loopback", "loopback"]"#, "sinks[1]: loopback is named twice"),
    ])
    func badListsAreRefused(list: String, message: String) {
        do {
            _ = try DaemonConfig.decode(json: #"{"sinks": \#(list)}"#)
            Issue.record("accepted \(list)")
        } catch {
            #expect(error.errors.map(\.description).contains(message), "\(error.errors.map(\.description))")
        }
    }
}
