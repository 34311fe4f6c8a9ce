import FoldcamV4L2

/// What an earlier producer may leave behind on a v4l2loopback device, and how the next one
/// takes it over. Written against Debian 12's v4l2loopback 0.12.7:
/// - it offers the output side only while no writer is attached (`ready_for_output`), and only
///   an opener that called VIDIOC_STREAMON(OUTPUT) counts as a writer: a producer that only
///   write()s (foldcamd's, ffmpeg's) never gives the output side back when it closes, and the
///   device then offers capture only, or nothing, to the next producer;
/// - `keep_format` keeps the last format after every opener has gone.
enum LoopbackState {
    /// Opens `node` for writing, first reclaiming the output side if a previous producer left
    /// it unclaimed.
    static func openForOutput(_ node: String) throws -> V4L2Device {
        let device = try V4L2Device(node: node, access: .kernel, nonBlocking: false)
        let info = try device.identity()
        guard info.driver == V4L2Device.loopbackDriverName, info.capabilities & V4L2Device.outputCapability == 0 else { return device }
        claimOutputSide(node)
        // QUERYCAP is where the module refreshes the capabilities the V4L2 core checks
        // VIDIOC_S_FMT(OUTPUT) against.
        let refreshed = try device.identity()
        guard refreshed.capabilities & V4L2Device.outputCapability != 0 else {
            throw LoopbackError(node: node, problem: "offers no output side even after reclaiming it; is another producer writing to it? (foldcamd must be its only producer)")
        }
        return device
    }

    /// An opener that calls STREAMON(OUTPUT) is marked a writer even when the call fails for
    /// lack of buffers; closing it hands the output side back.
    private static func claimOutputSide(_ node: String) {
        guard let opener = try? V4L2Device(node: node, access: .kernel, nonBlocking: true) else { return }
        try? opener.queue(V4L2Output.self, V4L2Mapped.self).streamOn()
        opener.close()
    }

    /// Clears `keep_format`, so the kept format is freed once the last opener closes.
    static func dropKeptFormat(_ device: V4L2Device) {
        if let id = device.controlIDs()["keep_format"] { try? device.setControl(id, 0, name: "keep_format") }
    }
}
