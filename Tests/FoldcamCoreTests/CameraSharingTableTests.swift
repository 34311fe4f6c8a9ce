import FoldcamCore
import Testing

/// Who hosts a physical camera two virtual cameras need (CameraSharingTable.swift).
@Suite struct CameraSharingTableTests {
    let nv12 = CameraSharingTable.Layout(format: "NV12", width: 640, height: 480)

    @Test func theFirstToOpenHostsAndTheSecondJoins() {
        var table = CameraSharingTable()
        #expect(table.want("front", by: "front-vc", layout: nv12) == .open)
        #expect(table.want("front", by: "rear-vc", layout: nv12) == .join(host: "front-vc"))
        // Asking again changes nothing.
        #expect(table.want("front", by: "rear-vc", layout: nv12) == .join(host: "front-vc"))
        #expect(table.want("front", by: "front-vc", layout: nv12) == .open)
        #expect(table.entries["front"]?.guests == ["rear-vc"])
        #expect(table.role(of: "front-vc", camera: "front") == .hosts(for: ["rear-vc"]))
        #expect(table.role(of: "rear-vc", camera: "front") == .fedFrom("front-vc"))
        #expect(table.role(of: "rear-vc", camera: "rear") == .own)
    }

    @Test func theHostKeepsTheStreamForItsGuestsAndClosesItWithTheLast() {
        var table = CameraSharingTable()
        _ = table.want("front", by: "a", layout: nv12)
        _ = table.want("front", by: "b", layout: nv12)
        _ = table.want("front", by: "c", layout: nv12)
        // The host stops needing it: the stream stays in its producer for b and c.
        #expect(table.release("front", by: "a") == .keepForGuests(["b", "c"]))
        #expect(table.entries["front"]?.hostNeeds == false)
        #expect(table.release("front", by: "b") == .leave(host: "a", closeInHost: false))
        // The last guest leaves a host that does not need it: the host closes it.
        #expect(table.release("front", by: "c") == .leave(host: "a", closeInHost: true))
        #expect(table.entries["front"] == nil)
        // Next time whoever asks first hosts.
        #expect(table.want("front", by: "c", layout: nv12) == .open)
    }

    @Test func theHostWantingItAgainKeepsHostingAndAGuestLeavingAWantedStreamClosesNothing() {
        var table = CameraSharingTable()
        _ = table.want("front", by: "a", layout: nv12)
        _ = table.want("front", by: "b", layout: nv12)
        _ = table.release("front", by: "a")
        #expect(table.want("front", by: "a", layout: nv12) == .open)
        #expect(table.release("front", by: "b") == .leave(host: "a", closeInHost: false))
        #expect(table.release("front", by: "a") == .close)
        #expect(table.entries.isEmpty)
    }

    @Test func aCameraInAnotherLayoutIsRefusedNotOpenedTwice() {
        var table = CameraSharingTable()
        let yuyv = CameraSharingTable.Layout(format: "YUYV", width: 320, height: 240)
        _ = table.want("front", by: "a", layout: nv12)
        #expect(table.want("front", by: "b", layout: yuyv) == .refuse(host: "a", hostLayout: nv12))
        #expect(table.entries["front"]?.guests == [])
        // A refused camera never joined: releasing it closes only what b has (nothing shared).
        #expect(table.release("front", by: "b") == .close)
        #expect(table.entries["front"]?.host == "a")
    }

    @Test func aFailedStreamAndARemovedProducerEndTheirEntries() {
        var table = CameraSharingTable()
        _ = table.want("front", by: "a", layout: nv12)
        _ = table.want("front", by: "b", layout: nv12)
        #expect(table.streamEnded("front", host: "b") == false)  // not b's stream
        #expect(table.streamEnded("front", host: "a") == true)
        #expect(table.entries.isEmpty)
        // The guest's retry makes it the host.
        #expect(table.want("front", by: "b", layout: nv12) == .open)
        _ = table.want("front", by: "a", layout: nv12)
        _ = table.want("rear", by: "a", layout: nv12)
        _ = table.want("rear", by: "b", layout: nv12)
        _ = table.release("rear", by: "a")
        // a goes: it leaves b's front (b still needs it), and its rear, kept for b, ends.
        #expect(table.remove("a").isEmpty)
        #expect(table.entries["front"]?.guests == [])
        #expect(table.entries["rear"] == nil)
        // b hosting front for c only, then b goes... c's entry: the host went, the entry goes.
        _ = table.want("front", by: "c", layout: nv12)
        _ = table.release("front", by: "b")
        #expect(table.remove("c").map(\.host) == ["b"])
        #expect(table.entries.isEmpty)
    }
}
