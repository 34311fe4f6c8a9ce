import FoldcamCore
@testable import FoldcamDaemon
import Foundation
import Testing

/// `foldcamd --check-config` names the outputs a rig puts displays on that this machine lacks.
@Suite struct OutputCheckTests {
    @Test func outputsTheMachineLacksAreNamed() throws {
        let text = try #require(RigPresets.json("duo"))
            .replacingOccurrences(of: #""anchor": "right"}"#, with: #""anchor": "right", "output": "eDP-1"}"#)
            .replacingOccurrences(of: #""faces": ["right.B"]}"#, with: #""faces": ["right.B"], "output": "eDP-2"}"#)
        let rig = try RigDecoder.decode(json: text)
        #expect(ConfigCheck.outputWarnings(rig, drmEntries: ["card0", "card0-eDP-1", "card0-eDP-2", "renderD128", "version"]).isEmpty)
        #expect(ConfigCheck.outputWarnings(rig, drmEntries: ["card0", "card0-eDP-1", "card0-HDMI-A-1", "version"]) == [
            #"display outer: output "eDP-2" is not a DRM connector of this machine; did you mean "eDP-1"? (connectors: HDMI-A-1, eDP-1): it counts as disconnected, so the display is never viewed"#,
        ])
        // No card visible (a container): nothing to compare with.
        #expect(ConfigCheck.outputWarnings(rig, drmEntries: []).isEmpty && ConfigCheck.outputWarnings(rig, drmEntries: ["version"]).isEmpty)
    }
}
