import FoldcamCore
@testable import FoldcamDevices
import Foundation
import Testing

/// DRM connectors seen → each display's output input, posted only when it changes.
@Suite struct OutputTrackerTests {
    func rig(inner: String = #""output": "eDP-1""#, outer: String = #""output": "eDP-2""#) throws -> Rig {
        func extra(_ field: String) -> String { field.isEmpty ? "" : ", " + field }
        let text = try #require(RigPresets.json("duo"))
            .replacingOccurrences(of: #""anchor": "right"}"#, with: #""anchor": "right"\#(extra(inner))}"#)
            .replacingOccurrences(of: #""faces": ["right.B"]}"#, with: #""faces": ["right.B"]\#(extra(outer))}"#)
        return try RigDecoder.decode(json: text)
    }

    @Test func sysfsNamesSplitIntoCardAndConnector() {
        #expect(ConnectorRecord.split(sysname: "card0-eDP-1")! == ("card0", "eDP-1"))
        #expect(ConnectorRecord.split(sysname: "card12-HDMI-A-1")! == ("card12", "HDMI-A-1"))
        for name in ["card0", "renderD128", "card-eDP-1", "cardx-eDP-1", "card0-", "version"] {
            #expect(ConnectorRecord.split(sysname: name) == nil, "\(name)")
        }
    }

    @Test func onlyChangesArePosted() throws {
        var tracker = OutputTracker(rig: try rig())
        let both = [ConnectorRecord(card: "card0", name: "eDP-1", state: .on), ConnectorRecord(card: "card0", name: "eDP-2", state: .on)]
        #expect(tracker.update(both, cardsSeen: true).events == [
            .output(display: 0, state: .on, panelOrientation: nil), .output(display: 1, state: .on, panelOrientation: nil),
        ])
        #expect(tracker.update(both, cardsSeen: true).events.isEmpty)
        var off = both
        off[1].state = .off
        #expect(tracker.update(off, cardsSeen: true).events == [.output(display: 1, state: .off, panelOrientation: nil)])
    }

    @Test func noCardClaimsNothingAndAMissingConnectorIsDisconnected() throws {
        var tracker = OutputTracker(rig: try rig())
        #expect(tracker.update([], cardsSeen: false) == ([], []))
        let (events, notes) = tracker.update([ConnectorRecord(card: "card0", name: "eDP-1", state: .on)], cardsSeen: true)
        #expect(events == [.output(display: 0, state: .on, panelOrientation: nil), .output(display: 1, state: .disconnected, panelOrientation: nil)])
        #expect(notes == [#"display outer: no DRM connector matches "eDP-2" (connectors: eDP-1); it counts as disconnected"#])
        // Said once while it stays missing.
        #expect(tracker.update([ConnectorRecord(card: "card0", name: "eDP-1", state: .on)], cardsSeen: true).notes.isEmpty)
    }

    @Test func theMostAliveOfSeveralCardsCounts() throws {
        var tracker = OutputTracker(rig: try rig(outer: ""))
        let events = tracker.update([
            ConnectorRecord(card: "card0", name: "eDP-1", state: .disconnected),
            ConnectorRecord(card: "card1", name: "eDP-1", state: .on, panelOrientation: 90),
        ], cardsSeen: true).events
        #expect(events == [.output(display: 0, state: .on, panelOrientation: 90)])
    }

    @Test func edidMatchesWhateverTheConnectorName() throws {
        var tracker = OutputTracker(rig: try rig(inner: #""edid": {"vendor": "BOE", "product": 2342}"#, outer: ""))
        #expect(tracker.readsEDID)
        let boe = EDIDIdentity(vendor: "BOE", product: 2342, serialNumber: 0, serialText: nil)
        let other = EDIDIdentity(vendor: "SDC", product: 1, serialNumber: 0, serialText: nil)
        let events = tracker.update([
            ConnectorRecord(card: "card0", name: "DP-3", state: .on, edid: other),
            ConnectorRecord(card: "card0", name: "DP-5", state: .off, edid: boe),
        ], cardsSeen: true).events
        #expect(events == [.output(display: 0, state: .off, panelOrientation: nil)])
    }

    @Test func aRigWithoutOutputsWatchesNothing() throws {
        let tracker = OutputTracker(rig: try RigPresets.rig("duo")!)
        #expect(!tracker.watches && !tracker.readsEDID)
    }
}
