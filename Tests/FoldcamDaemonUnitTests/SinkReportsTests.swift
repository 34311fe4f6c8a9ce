import FoldcamCore
@testable import FoldcamDaemon
import Testing

/// `SinkReports`: reports by connection, and what a refused snapshot says when a PipeWire node
/// carries the virtual camera (docs/pipewire.md, "Snapshots").
@Suite("sink reports, unit")
struct SinkReportsUnitTests {
    let owner = PinBoard.Owner(uid: 1000, pid: 42, command: "foldcam-pipewire")

    @Test func aReportBelongsToItsConnection() {
        var reports = SinkReports()
        let sink = SinkReports.Sink(virtualCamera: "viewed", node: "foldcam.viewed", state: .idle)
        let first = reports.report([sink], reporter: owner, sessionID: 7)
        let again = reports.report([sink], reporter: owner, sessionID: 7)
        let other = reports.report([sink], reporter: owner, sessionID: 8)
        #expect(first && !again && other, "the same report again changes nothing")
        #expect(reports.all.map(\.sessionID) == [7, 8])
        let left = reports.sessionLeft(7)
        #expect(left?.sinks == [sink])
        #expect(reports.all.map(\.sessionID) == [8])
        let withdrawn = reports.report([], reporter: owner, sessionID: 8)
        #expect(withdrawn)
        #expect(reports.all.isEmpty)
    }

    @Test func aRefusedSnapshotNamesThePipeWireNodeOnlyWhenOneIsReported() {
        var reports = SinkReports()
        #expect(reports.snapshotHint(virtualCamera: "viewed") == nil, "nothing is claimed without a report")
        _ = reports.report([SinkReports.Sink(virtualCamera: "viewed", node: "foldcam.viewed", state: .streaming)], reporter: owner, sessionID: 1)
        let hint = reports.snapshotHint(virtualCamera: "viewed") ?? ""
        #expect(hint.contains("PipeWire node \"foldcam.viewed\"") && hint.contains("foldcamd cannot read") && hint.contains("target-object=foldcam.viewed"), "\(hint)")
        #expect(reports.snapshotHint(virtualCamera: "rear") == nil)
    }
}
