@testable import FoldcamCore
import Testing

/// The textfile's format: what node_exporter and promtool accept (docs/metrics.md).
@Suite("Prometheus text format")
struct PrometheusTextTests {
    @Test("families render HELP, TYPE and samples; label values and help are escaped")
    func rendering() {
        let text = PrometheusText.render([
            .init(name: "foldcam_camera_available", help: "1 when usable.\nSecond line \\ here", kind: .gauge,
                  samples: [.init(labels: [("camera", "inner-front")], value: 1), .init(labels: [("camera", "we\"ird\\\nname")], value: 0)]),
            .init(name: "foldcam_socket_clients", help: "Clients.", kind: .gauge, samples: [.init(value: 3)]),
        ])
        #expect(text == """
            # HELP foldcam_camera_available 1 when usable.\\nSecond line \\\\ here
            # TYPE foldcam_camera_available gauge
            foldcam_camera_available{camera="inner-front"} 1
            foldcam_camera_available{camera="we\\"ird\\\\\\nname"} 0
            # HELP foldcam_socket_clients Clients.
            # TYPE foldcam_socket_clients gauge
            foldcam_socket_clients 3

            """)
    }

    @Test("values: integers plainly, fractions shortest, infinities and NaN as Prometheus spells them")
    func values() {
        #expect(PrometheusText.format(42) == "42")
        #expect(PrometheusText.format(-0.5) == "-0.5")
        #expect(PrometheusText.format(1796134665.4674556) == "1796134665.4674556")
        #expect(PrometheusText.format(.infinity) == "+Inf")
        #expect(PrometheusText.format(-.infinity) == "-Inf")
        #expect(PrometheusText.format(.nan) == "NaN")
        #expect(PrometheusText.format(1e20) == "1e+20")
    }

    @Test("names and label names follow the data model")
    func naming() {
        #expect(PrometheusText.isValidName("foldcam_socket_requests_total"))
        #expect(PrometheusText.isValidName("ns:metric_1"))
        #expect(!PrometheusText.isValidName("1metric"))
        #expect(!PrometheusText.isValidName("foldcam-camera"))
        #expect(!PrometheusText.isValidName(""))
        #expect(PrometheusText.isValidLabelName("camera"))
        #expect(!PrometheusText.isValidLabelName("__name__"))
        #expect(!PrometheusText.isValidLabelName("le:x"))
    }

    @Test("a histogram has cumulative buckets ending in +Inf, a sum and a count")
    func histogram() {
        let family = PrometheusText.Family.histogram(name: "foldcam_virtual_camera_switch_seconds", help: "h", labels: [("virtual_camera", "viewed")],
                                                     bounds: [0.1, 1], counts: [2, 3], total: 6, sum: 14.5)
        let text = PrometheusText.render([family])
        #expect(text.contains(#"foldcam_virtual_camera_switch_seconds_bucket{virtual_camera="viewed",le="0.1"} 2"#))
        #expect(text.contains(#"foldcam_virtual_camera_switch_seconds_bucket{virtual_camera="viewed",le="1"} 5"#))
        #expect(text.contains(#"foldcam_virtual_camera_switch_seconds_bucket{virtual_camera="viewed",le="+Inf"} 6"#), "one observation above the last bound")
        #expect(text.contains(#"foldcam_virtual_camera_switch_seconds_sum{virtual_camera="viewed"} 14.5"#))
        #expect(text.contains(#"foldcam_virtual_camera_switch_seconds_count{virtual_camera="viewed"} 6"#))
    }
}
