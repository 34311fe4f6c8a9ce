import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl metrics`: the daemon's metrics in Prometheus text format, the same text it
/// writes for node_exporter (docs/metrics.md), for machines without one.
enum MetricsCommand {
    static func run(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        try arguments.finish()
        let reply = try await daemon.call("metrics")
        if daemon.json { return daemon.printJSON(reply) }
        guard let text = reply["text"]?.stringValue else { throw FoldcamClientError.invalidReply("metrics reply carries no text") }
        StandardOutput.write(text)
    }
}
