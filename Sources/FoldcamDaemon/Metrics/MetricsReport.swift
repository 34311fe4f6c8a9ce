import FoldcamCapture
import FoldcamCore

/// The daemon's metrics as Prometheus families: the counters of `DaemonMetrics` and gauges read
/// from the current state. The same text goes to the textfile (`MetricsExporter`) and to the
/// `metrics` socket method. docs/metrics.md describes each.
enum MetricsReport {
    typealias Family = PrometheusText.Family
    typealias Sample = PrometheusText.Sample

    struct Context {
        var daemon: Daemon
        var clients: Int
        var metrics: DaemonMetrics
        var producer: VirtualCameraProducer.Statistics?
        /// Unix time the daemon started, seconds.
        var startTime: Double
        /// How long the previous textfile write took, seconds (nil before the first).
        var lastWriteSeconds: Double?
    }

    static func text(_ context: Context) -> String {
        PrometheusText.render(families(context))
    }

    static func families(_ c: Context) -> [Family] {
        let rig = c.daemon.rig, state = c.daemon.engine.state, m = c.metrics
        let cameras = rig.cameras.map(\.id)
        var families: [Family] = [
            Family(name: "foldcam_daemon_info", help: "The running daemon: its version, rig and mode (always 1).", kind: .gauge,
                   samples: [Sample(labels: [("version", Daemon.version), ("rig", rig.id), ("mode", c.daemon.mode.rawValue)], value: 1)]),
            Family(name: "foldcam_daemon_start_time_seconds", help: "When the daemon started, Unix time.", kind: .gauge,
                   samples: [Sample(value: c.startTime)]),
            Family(name: "foldcam_camera_available", help: "1 when the rig camera can be used now, else 0.", kind: .gauge,
                   samples: cameras.indices.map { Sample(labels: [("camera", cameras[$0])], value: state.cameras[$0].available ? 1 : 0) }),
            Family(name: "foldcam_camera_unavailable_reason", help: "Why a rig camera cannot be used (1 for the current reason).", kind: .gauge,
                   samples: cameras.indices.flatMap { index in
                       ["occluded", "unplugged", "busy"].map { reason in
                           Sample(labels: [("camera", cameras[index]), ("reason", reason)], value: state.cameras[index].unavailable?.rawValue == reason ? 1 : 0)
                       }
                   }),
            Family(name: "foldcam_camera_opens_total", help: "Times the virtual camera opened the rig camera.", kind: .counter,
                   samples: cameras.map { Sample(labels: [("camera", $0)], value: Double(m.cameraOpens[$0] ?? 0)) }),
            Family(name: "foldcam_camera_open_failures_total", help: "Times opening the rig camera failed.", kind: .counter,
                   samples: cameras.map { Sample(labels: [("camera", $0)], value: Double(m.cameraOpenFailures[$0] ?? 0)) }),
        ]
        let view = [("virtual_camera", "viewed")]
        families += [
            Family(name: "foldcam_virtual_camera_frames_written_total", help: "Frames written to the virtual camera's loopback.", kind: .counter,
                   samples: [Sample(labels: view, value: Double(c.producer?.framesWritten ?? 0))]),
            Family(name: "foldcam_virtual_camera_frames_repeated_total", help: "Frames written again because no new one had arrived in time.", kind: .counter,
                   samples: [Sample(labels: view, value: Double(c.producer?.repeatedFrames ?? 0))]),
            Family(name: "foldcam_virtual_camera_frames_forwarded_total", help: "Camera frames written to the virtual camera, by path: zero_copy (queued in the loopback buffer the camera captured into, as it was) or copied.", kind: .counter,
                   samples: [Sample(labels: view + [("path", "zero_copy")], value: Double(c.producer?.zeroCopyFrames ?? 0)),
                             Sample(labels: view + [("path", "copied")], value: Double((c.producer?.framesFromCameras ?? 0) - (c.producer?.zeroCopyFrames ?? 0)))]),
            Family(name: "foldcam_virtual_camera_readiness", help: "The virtual camera's readiness (1 for the current state).", kind: .gauge,
                   samples: ["ready", "switching", "interrupted", "idle", "stopped"].map { name in
                       Sample(labels: view + [("state", name)], value: readinessName(c.daemon.readiness) == name ? 1 : 0)
                   }),
            Family(name: "foldcam_virtual_camera_switches_total", help: "Changes of the camera feeding the virtual camera, by what caused them.", kind: .counter,
                   samples: DaemonMetrics.SwitchCause.allCases.map { Sample(labels: view + [("cause", $0.rawValue)], value: Double(m.switches[$0] ?? 0)) }),
            Family.histogram(name: "foldcam_virtual_camera_switch_seconds", help: "Time from a decision to the new camera's first frame on the virtual camera.",
                             labels: view, bounds: m.switchGaps.bounds, counts: m.switchGaps.finiteCounts, total: m.switchGaps.total, sum: m.switchGaps.sum),
            Family(name: "foldcam_posture", help: "The rig's posture (1 for the current one).", kind: .gauge,
                   samples: rig.postures.indices.map { Sample(labels: [("posture", rig.postures[$0].id)], value: state.posture == $0 ? 1 : 0) }),
            Family(name: "foldcam_hinge_angle_degrees", help: "Each hinge's angle as the daemon uses it.", kind: .gauge,
                   samples: rig.hinges.indices.map { Sample(labels: [("hinge", rig.hinges[$0].id)], value: state.hingeAngles[$0]) }),
            Family(name: "foldcam_sensor_readings_rejected_total", help: "Sensor readings dropped as implausible (out of range, too fast, not finite).", kind: .counter,
                   samples: [Sample(value: Double(m.rejectedReadings))]),
            Family(name: "foldcam_socket_clients", help: "Clients connected to the control socket.", kind: .gauge,
                   samples: [Sample(value: Double(c.clients))]),
            Family(name: "foldcam_socket_requests_total", help: "Requests by method and result (ok or the error code).", kind: .counter,
                   samples: m.requests.keys.sorted().flatMap { method in
                       m.requests[method]!.keys.sorted().map { result in
                           Sample(labels: [("method", method), ("result", result)], value: Double(m.requests[method]![result]!))
                       }
                   }),
            Family(name: "foldcam_socket_refused_connections_total", help: "New clients turned away, by the limit (docs/security.md).", kind: .counter,
                   samples: DaemonMetrics.RefusalReason.allCases.map { Sample(labels: [("reason", $0.rawValue)], value: Double(m.refusedConnections[$0] ?? 0)) }),
            Family(name: "foldcam_socket_disconnects_total", help: "Clients the daemon disconnected, by why.", kind: .counter,
                   samples: DaemonMetrics.DisconnectReason.allCases.map { Sample(labels: [("reason", $0.rawValue)], value: Double(m.disconnects[$0] ?? 0)) }),
            Family(name: "foldcam_config_reloads_total", help: "SIGHUP reloads, by result.", kind: .counter,
                   samples: ["ok", "failed"].map { Sample(labels: [("result", $0)], value: Double(m.reloads[$0] ?? 0)) }),
        ]
        families.append(sinkStates(c.daemon.sinks))
        if let seconds = c.lastWriteSeconds {
            families.append(Family(name: "foldcam_metrics_write_seconds", help: "How long the previous write of this file took.", kind: .gauge,
                                   samples: [Sample(value: seconds)]))
        }
        return families
    }

    /// Each reported sink's state (SinkReports.swift): how many connected companions report it
    /// in each state, normally 0 or 1. No sample without a report: nothing is claimed.
    static func sinkStates(_ sinks: SinkReports) -> Family {
        var counts: [[String]: [SinkReports.State: Int]] = [:]
        for entry in sinks.all { counts[[entry.sink.virtualCamera, entry.sink.kind, entry.sink.node], default: [:]][entry.sink.state, default: 0] += 1 }
        return Family(name: "foldcam_sink_state", help: "Sinks their companions report (1 for the current state), such as PipeWire nodes.", kind: .gauge,
                      samples: counts.keys.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { key in
                          SinkReports.State.allCases.map { state in
                              Sample(labels: [("virtual_camera", key[0]), ("kind", key[1]), ("node", key[2]), ("state", state.rawValue)], value: Double(counts[key]![state] ?? 0))
                          }
                      })
    }

    static func readinessName(_ readiness: Readiness) -> String {
        switch readiness {
        case .ready: return "ready"
        case .switching: return "switching"
        case .interrupted: return "interrupted"
        case .idle: return "idle"
        case .stopped: return "stopped"
        }
    }
}
