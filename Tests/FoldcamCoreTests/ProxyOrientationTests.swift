import FoldcamCore
import Testing

/// iio-sensor-proxy's quarter-turn orientation as a gravity hint: each value's vector is the one
/// the proxy's own cut gives back, and unknown text is refused with the nearest value.
@Suite struct ProxyOrientationTests {
    @Test func eachHintIsCutBackToItself() {
        for orientation in ProxyOrientation.allCases where orientation != .undefined {
            guard let gravity = orientation.gravity else { Issue.record("\(orientation) has no gravity"); continue }
            #expect(abs(gravity.length - 1) < 1e-12)
            #expect(ProxyOrientation.of(gravity) == orientation)
        }
        #expect(ProxyOrientation.undefined.gravity == nil)
    }

    @Test func anUprightPanelReadsNormalAndAFlatOneUndefined() {
        // hwdb convention: upright reads −y (gravity points down the panel).
        #expect(ProxyOrientation.of(Vector3(0, -9.8, 0)) == .normal)
        #expect(ProxyOrientation.of(Vector3(0.5, -0.3, -9.8)) == .undefined)
        // Tilted 30° towards the left edge only: under the 35° threshold, still landscape.
        #expect(ProxyOrientation.of(Vector3(4.9, -8.5, 0)) == .normal)
        #expect(ProxyOrientation.of(Vector3(8.5, -4.9, 0)) == .leftUp)
        #expect(ProxyOrientation.of(Vector3(-8.5, -4.9, 0)) == .rightUp)
        #expect(ProxyOrientation.of(Vector3(0, 9.8, 0)) == .bottomUp)
        #expect(ProxyOrientation.of(Vector3(0, 0, 0)) == .undefined)
    }

    @Test func theProxysTextIsParsedAndNonsenseRefused() throws {
        #expect(try ProxyOrientation(parsing: "left-up") == .leftUp)
        #expect(throws: PathError.self) { try ProxyOrientation(parsing: "left_up") }
        do {
            _ = try ProxyOrientation(parsing: "bottom_up")
        } catch {
            #expect(error.description.contains("did you mean \"bottom-up\""))
        }
    }
}
