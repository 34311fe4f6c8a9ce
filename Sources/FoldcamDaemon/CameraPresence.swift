import FoldcamCore

/// Where each rig camera was seen, in hardware mode: a V4L2 node answered (the device layer's
/// inventory), or a user session's `foldcam-pipewire` sees the camera's PipeWire node
/// (`reportSinks`' `cameras`). The engine is told the union. A camera only libcamera can drive
/// (IPU6/IPU7, vimc) has no V4L2 node foldcam can read, so PipeWire is the only place it is
/// ever seen; without this it would stay unplugged and never be chosen.
struct CameraPresence: Equatable {
    private(set) var byDevices: [Bool]
    private(set) var byPipeWire: [Bool]

    init(cameras: Int) {
        byDevices = Array(repeating: false, count: cameras)
        byPipeWire = byDevices
    }

    var present: [Bool] { zip(byDevices, byPipeWire).map { $0 || $1 } }

    /// The device layer's news. A plug or unplug the other place already covers changes
    /// nothing and gives nil; anything else passes on unchanged.
    mutating func device(_ event: InputEvent) -> InputEvent? {
        switch event {
        case let .cameraPlugged(camera) where byDevices.indices.contains(camera):
            let before = present[camera]
            byDevices[camera] = true
            return before ? nil : event
        case let .cameraUnplugged(camera) where byDevices.indices.contains(camera):
            let before = present[camera]
            byDevices[camera] = false
            return before && !present[camera] ? event : nil
        default:
            return event
        }
    }

    /// What the companions see now (one flag per rig camera); the plugs and unplugs it makes.
    mutating func pipeWire(_ seen: [Bool]) -> [InputEvent] {
        guard seen.count == byPipeWire.count else { return [] }
        let before = present
        byPipeWire = seen
        return zip(before, present).enumerated().compactMap { index, pair in
            pair.0 == pair.1 ? nil : pair.1 ? .cameraPlugged(camera: index) : .cameraUnplugged(camera: index)
        }
    }

    /// The same cameras, by id, in `newRig` (a reload): what was seen stays seen until the
    /// device thread or a companion says otherwise; a camera new to the rig is unseen.
    func carried(from oldRig: Rig, to newRig: Rig) -> CameraPresence {
        var carried = CameraPresence(cameras: newRig.cameras.count)
        for (index, camera) in newRig.cameras.enumerated() {
            guard let old = oldRig.cameraIndex(camera.id) else { continue }
            carried.byDevices[index] = byDevices[old]
            carried.byPipeWire[index] = byPipeWire[old]
        }
        return carried
    }
}
