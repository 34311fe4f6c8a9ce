/// The decision core: holds the latest inputs and the decision memory (hysteresis), and turns
/// each input event into one new `FoldState`. Pure and deterministic: no clock, no I/O.
public struct FoldEngine: Sendable {
    public let rig: Rig
    public let plan: VirtualCameraPlan
    private let accelerometerPair: AccelerometerPair?
    /// Judges readings before they vote (docs/model.md, "Sensor checks").
    private var plausibility: SensorPlausibility
    /// The time readings are judged at: the caller's, else the scenario's.
    private var readingTime = 0
    /// Presence inputs as they count after the debounce.
    private var presence: PresenceDebounce
    /// Per display, where each of its faces lies on it (mount rotation 0): for covered parts.
    private let faceRects: [[DisplayRect]]

    // Latest inputs.
    private var timeMilliseconds = 0
    private var sensorAngles: [Double?]
    private var accelerometerAngles: [Double?]
    private var accelerometerReadings: [Vector3?]
    /// Sensors with a reading not yet used for an angle.
    private var freshReadings: Set<Int> = []
    private var lastReadings: [Double?]
    /// Whether each last reading came from the hinge sensor (rather than the accelerometers).
    private var lastFromSensor: [Bool]
    /// Notices from judging the reading `record` just took, for `apply` to report.
    private var pendingNotices: [SensorPlausibility.Notice] = []
    private var lidClosed = false
    private var tabletModeOn = false
    private var reportedGravity: Vector3?
    private var gravityFromAccelerometers = false
    /// iio-sensor-proxy's orientation per accelerometer, as gravity in its panel's frame: used
    /// only when nothing measured or reported gravity.
    private var orientationHints: [Int: Vector3] = [:]
    private var screenRotations: [Int]
    private var pinnedDisplay: Int?
    private var plugged: [Bool]
    private var busy: [Bool]
    private var outputStates: [OutputState]
    private var panelOrientations: [Int?]

    // Decision memory.
    private var sides: [[Bool?]]
    private var previewRotations: [[Int]]
    private var captureRotations: [Int?]
    private var posture: Int?
    private var screenAdvice: [ScreenAdvice?]

    public private(set) var state: FoldState

    public init(rig: Rig) {
        self.init(rig: rig, plan: VirtualCameraPlan(rig: rig))
    }

    /// With a precomputed plan (the pool is a search of hinge space; a reload with the same rig reuses it).
    public init(rig: Rig, plan: VirtualCameraPlan) {
        self.rig = rig
        self.plan = plan
        accelerometerPair = AccelerometerPair(rig)
        plausibility = SensorPlausibility(rig: rig)
        presence = PresenceDebounce(rig.presence)
        faceRects = rig.presence.contains { $0.covers.contains { $0.face != nil } } ? rig.displays.map { DisplayRegions.faceRects($0, rig: rig) } : []
        sensorAngles = Array(repeating: nil, count: rig.hinges.count)
        accelerometerAngles = sensorAngles
        lastReadings = sensorAngles
        lastFromSensor = Array(repeating: false, count: rig.hinges.count)
        accelerometerReadings = Array(repeating: nil, count: rig.accelerometers.count)
        screenRotations = Array(repeating: 0, count: rig.displays.count)
        plugged = Array(repeating: true, count: rig.cameras.count)
        busy = Array(repeating: false, count: rig.cameras.count)
        outputStates = Array(repeating: .unknown, count: rig.displays.count)
        panelOrientations = Array(repeating: nil, count: rig.displays.count)
        sides = Array(repeating: Array(repeating: nil, count: rig.cameras.count), count: rig.displays.count)
        previewRotations = Array(repeating: Array(repeating: 0, count: rig.cameras.count), count: rig.displays.count)
        captureRotations = Array(repeating: nil, count: rig.cameras.count)
        screenAdvice = Array(repeating: nil, count: rig.displays.count)
        state = FoldState(
            timeMilliseconds: 0, hingeAngles: [], hingeSources: [], posture: 0, viewedDisplay: 0,
            pinnedDisplay: nil, screenRotations: [], gravity: nil, displays: [], cameras: [],
            virtualCamera: VirtualCameraState(source: nil, noSourceReason: nil), screens: [], suspectSensors: [], present: [])
        state = recompute()
    }

    /// Applies one input and recomputes. Inputs that make no sense (non-finite, out of range)
    /// are dropped and named in `warnings`; the state then stays as it was.
    public mutating func apply(_ event: InputEvent) -> FoldUpdate {
        apply(event, atMilliseconds: nil)
    }

    /// `atMilliseconds`: when the input was observed (monotonic), for the sensor checks' time
    /// windows; nil uses the scenario's time (`advanceTime`).
    public mutating func apply(_ event: InputEvent, atMilliseconds time: Int?) -> FoldUpdate {
        if case let .advanceTime(milliseconds) = event, time == nil { readingTime += max(0, milliseconds) }
        if let time { readingTime = time }
        var notes: [String] = []
        var warnings = record(event)
        let notices = judge(event)
        for notice in notices {
            switch notice {
            case let .setAside(suspicion):
                warnings.append("\(suspicion.detail); set aside until \(numberText(plausibility.limits.trustAfter)) plausible readings, deciding from the other inputs: \(suspicion.fault.advice)")
                setAside(suspicion)
            case let .trusted(sensor, was):
                notes.append("\(sensor.kind) \(sensor.name(in: rig)): trusted again after \(numberText(plausibility.limits.trustAfter)) plausible readings (it was set aside as \(was.rawValue))")
            }
        }
        if case let .presence(input, present) = event { presence.observe(input, present: present, at: readingTime) }
        _ = presence.settle(at: readingTime)
        let old = state
        state = recompute()
        return FoldUpdate(state: state, change: StateChange(from: old, to: state), warnings: warnings, notes: notes,
                          nextCheckAtMilliseconds: [presence.nextDeadline, plausibility.nextDeadline].compactMap { $0 }.min())
    }

    /// Stuck windows complete on any input, not only on the stuck sensor's own readings.
    private mutating func judge(_ event: InputEvent) -> [SensorPlausibility.Notice] {
        switch event {
        case .hingeAngle, .accelerometer: return pendingNotices
        case let .lidSwitch(closed):
            return pendingNotices + plausibility.lidSwitch(closed: closed, at: readingTime)
        case let .tabletModeSwitch(on):
            return pendingNotices + plausibility.tabletModeSwitch(on: on, at: readingTime)
        default:
            return pendingNotices + plausibility.check(at: readingTime)
        }
    }

    /// A sensor just set aside stops voting now. A stuck one's last value was itself the
    /// fault, so it stops standing in for the hinge; other faults were never taken.
    private mutating func setAside(_ suspicion: SensorSuspicion) {
        switch suspicion.sensor {
        case let .hinge(hinge):
            sensorAngles[hinge] = nil
            if suspicion.fault == .stuck, lastFromSensor[hinge] { lastReadings[hinge] = accelerometerAngles[hinge] }
        case let .accelerometerPair(hinge):
            accelerometerAngles[hinge] = nil
        }
    }

    // MARK: Inputs

    private mutating func record(_ event: InputEvent) -> [String] {
        pendingNotices = []
        switch event {
        case let .hingeAngle(hinge, degrees):
            let spec = rig.hinges[hinge]
            let judged = plausibility.hingeReading(hinge, degrees, at: readingTime)
            pendingNotices = judged.notices
            guard judged.usable else { return [] }
            guard let angle = Self.acceptAngle(degrees, hinge: spec) else {
                return ["hinge \(spec.id): reading \(numberText(degrees)) is not an angle within [\(numberText(spec.minimum)), \(numberText(spec.maximum))]; dropped"]
            }
            sensorAngles[hinge] = angle
            lastReadings[hinge] = angle
            lastFromSensor[hinge] = true
        case let .hingeSensorLost(hinge):
            sensorAngles[hinge] = nil
            plausibility.hingeLost(hinge)
        case let .lidSwitch(closed):
            lidClosed = closed
        case let .tabletModeSwitch(on):
            tabletModeOn = on
        case let .gravity(vector):
            if let problem = vector.directionProblem(minimumLength: 1e-6) {
                return ["gravity \(vector) \(problem); dropped"]
            }
            reportedGravity = vector
            gravityFromAccelerometers = false
        case let .accelerometer(sensor, reading):
            if let problem = reading.directionProblem(minimumLength: 1e-6) {
                return ["accelerometer \(rig.accelerometers[sensor].id): reading \(reading) \(problem); dropped"]
            }
            accelerometerReadings[sensor] = reading
            freshReadings.insert(sensor)
            gravityFromAccelerometers = true
            return updateAccelerometerAngle()
        case let .accelerometerOrientation(sensor, orientation):
            orientationHints[sensor] = orientation.gravity
        case let .accelerometerLost(sensor):
            accelerometerReadings[sensor] = nil
            freshReadings.remove(sensor)
            if let pair = accelerometerPair {
                accelerometerAngles[pair.hinge] = nil
                plausibility.accelerometersLost(pair.hinge)
            }
            if accelerometerReadings.allSatisfy({ $0 == nil }) { gravityFromAccelerometers = false }
        case let .screenRotation(display, degrees):
            guard degrees % 90 == 0 else {
                return ["display \(rig.displays[display].id): screen rotation \(degrees) is not a multiple of 90; dropped"]
            }
            screenRotations[display] = ((degrees % 360) + 360) % 360
        case let .pinView(display):
            pinnedDisplay = display
        case let .cameraPlugged(camera):
            plugged[camera] = true
        case let .cameraUnplugged(camera):
            plugged[camera] = false
        case let .cameraBusy(camera, isBusy):
            busy[camera] = isBusy
        case let .output(display, outputState, panelOrientation):
            if let panelOrientation, ![0, 90, 180, 270].contains(panelOrientation) {
                return ["display \(rig.displays[display].id): panel orientation \(panelOrientation) is not one of 0, 90, 180, 270; dropped"]
            }
            outputStates[display] = outputState
            panelOrientations[display] = panelOrientation
        case let .advanceTime(milliseconds):
            timeMilliseconds += max(0, milliseconds)
        case .presence:
            break  // debounced in `apply`, in the reading time
        }
        return []
    }

    /// Finite and within the range; up to 1° past an end is sensor noise and is clamped.
    static func acceptAngle(_ degrees: Double, hinge: Hinge) -> Double? {
        guard degrees.isFinite, degrees >= hinge.minimum - 1, degrees <= hinge.maximum + 1 else { return nil }
        return min(max(degrees, hinge.minimum), hinge.maximum)
    }

    /// Computes the hinge angle once both sensors have reported since the last computation, so
    /// a new reading is never paired with a stale one from another pose.
    private mutating func updateAccelerometerAngle() -> [String] {
        guard let pair = accelerometerPair,
              freshReadings.contains(pair.parentSensor), freshReadings.contains(pair.childSensor),
              let parentReading = accelerometerReadings[pair.parentSensor],
              let childReading = accelerometerReadings[pair.childSensor] else { return [] }
        freshReadings.removeAll()
        let hinge = rig.hinges[pair.hinge]
        let near = state.hingeAngles.isEmpty ? hinge.initial : state.hingeAngles[pair.hinge]
        let angle = AccelerometerPair.hingeAngle(
            parentReading: parentReading, childReading: childReading, hinge: hinge,
            minimumProjection: rig.tunables.accelerometerMinimumProjection, near: near)
        accelerometerAngles[pair.hinge] = angle
        guard let angle else {
            return ["accelerometers: gravity is too close to hinge \(hinge.id)'s axis (or the angle is outside its range) to give an angle; using the next input"]
        }
        let judged = plausibility.accelerometerAngle(pair.hinge, angle, at: readingTime)
        pendingNotices = judged.notices
        guard judged.usable else {
            accelerometerAngles[pair.hinge] = nil
            return []
        }
        lastReadings[pair.hinge] = angle
        lastFromSensor[pair.hinge] = false
        return []
    }

    // MARK: Decisions

    private func effectiveAngle(_ hinge: Int) -> (Double, HingeInputSource) {
        var hint: (angle: Double, source: HingeInputSource)?
        for (on, mapping, source) in [(lidClosed, rig.switches.lid, HingeInputSource.lidSwitch), (tabletModeOn, rig.switches.tabletMode, .tabletModeSwitch)] {
            guard on, let mapping, mapping.hinge == hinge else { continue }
            if mapping.mode == .override { return (mapping.angle, source) }
            if hint == nil { hint = (mapping.angle, source) }
        }
        switch (sensorAngles[hinge], accelerometerAngles[hinge]) {
        case let (sensor?, accelerometers?):
            // A hint picks between measurements that disagree: the one nearer its angle.
            if let hint, abs(accelerometers - hint.angle) < abs(sensor - hint.angle) { return (accelerometers, .accelerometers) }
            return (sensor, .sensor)
        case let (sensor?, nil): return (sensor, .sensor)
        case let (nil, accelerometers?): return (accelerometers, .accelerometers)
        case (nil, nil): break
        }
        if let hint { return (hint.angle, hint.source) }
        if let angle = lastReadings[hinge] { return (angle, .lastReading) }
        return (rig.hinges[hinge].initial, .initial)
    }

    /// Recomputes every decision from the current inputs and memory.
    public mutating func recompute() -> FoldState {
        var angles = [Double](repeating: 0, count: rig.hinges.count)
        var sources = [HingeInputSource](repeating: .initial, count: rig.hinges.count)
        for hinge in rig.hinges.indices {
            (angles[hinge], sources[hinge]) = effectiveAngle(hinge)
        }
        let pose = RigPose(rig: rig, angles: angles)
        // A present input that sets the posture wins (the first listed, if several do).
        let presentPosture = rig.presence.indices.first { presence.present[$0] && rig.presence[$0].posture != nil }.flatMap { rig.presence[$0].posture }
        let currentPosture = presentPosture ?? PostureResolver.resolve(rig, angles: angles, previous: posture)
        posture = currentPosture

        let coveredFaces = presenceCoveredFaces()
        let cameraStates = availability(pose, coveredFaces: coveredFaces)
        let bases = rig.cameras.map { ImageRotation.basis(of: $0, pose: pose) }
        var displays: [DisplayState] = []
        displays.reserveCapacity(rig.displays.count)
        for index in rig.displays.indices {
            displays.append(decideDisplay(index, pose: pose, bases: bases, cameras: cameraStates, coveredFaces: coveredFaces))
        }

        // Nobody views a display whose output shows nothing: the first display that can be
        // viewed stands in for the posture's (docs/model.md, "Outputs").
        let postureDisplay = rig.postures[currentPosture].display
        var viewed = postureDisplay
        if outputStates[postureDisplay].showsNothing, let lit = displays.indices.first(where: { displays[$0].viewable }) {
            viewed = lit
        }
        if let pinned = pinnedDisplay, displays[pinned].viewable { viewed = pinned }

        let gravity = currentGravity(pose)
        var cameras = cameraStates
        for index in rig.cameras.indices {
            cameras[index].captureRotation = decideCaptureRotation(index, basis: bases[index], gravity: gravity, viewed: viewed)
        }
        for index in rig.displays.indices {
            screenAdvice[index] = ScreenAdvisor.advise(
                rig.displays[index], occluded: displays[index].occluded, mountRotation: mountRotation(index).0, gravity: gravity,
                pose: pose, minimumProjection: rig.tunables.rotationMinimumProjection, previous: screenAdvice[index])
        }

        return FoldState(
            timeMilliseconds: timeMilliseconds, hingeAngles: angles, hingeSources: sources,
            posture: currentPosture, viewedDisplay: viewed, pinnedDisplay: pinnedDisplay,
            screenRotations: screenRotations, gravity: gravity, displays: displays, cameras: cameras,
            virtualCamera: plan.source(rig: rig, state: displays, viewedDisplay: viewed),
            screens: screenAdvice.compactMap { $0 }, suspectSensors: plausibility.ordered, present: presence.present)
    }

    /// Faces that present inputs lie on (a face cover; a whole-display cover is not a face's).
    private func presenceCoveredFaces() -> Set<FaceRef> {
        var faces: Set<FaceRef> = []
        for index in rig.presence.indices where presence.present[index] {
            for cover in rig.presence[index].covers { if let face = cover.face { faces.insert(face) } }
        }
        return faces
    }

    private func availability(_ pose: RigPose, coveredFaces: Set<FaceRef>) -> [CameraState] {
        rig.cameras.indices.map { index in
            let reason: UnavailableReason?
            if !plugged[index] {
                reason = .unplugged
            } else if pose.isCovered(rig.cameras[index].face) || coveredFaces.contains(rig.cameras[index].face) {
                reason = .occluded
            } else if busy[index] {
                reason = .busy
            } else {
                reason = nil
            }
            return CameraState(unavailable: reason, captureRotation: 0)
        }
    }

    private mutating func decideDisplay(
        _ index: Int, pose: RigPose, bases: [ImageRotation.CameraBasis], cameras: [CameraState], coveredFaces: Set<FaceRef>
    ) -> DisplayState {
        let display = rig.displays[index]
        // A face under a presence input hides that part; the display is viewed through the rest.
        // (Nothing to filter, so nothing allocated, on a rig with no face covered.)
        var visible = display
        if !coveredFaces.isEmpty { visible.faces = display.faces.filter { !coveredFaces.contains($0) } }
        let occluded = display.faces.contains { pose.isCovered($0) } || visible.faces.isEmpty
            || rig.presence.indices.contains { presence.present[$0] && rig.presence[$0].covers.contains(DisplayCover(display: index)) }
        let unviewable: UnviewableReason? = occluded ? .occluded
            : outputStates[index] == .off ? .outputOff
            : outputStates[index] == .disconnected ? .outputDisconnected : nil
        let (mount, mountSource) = mountRotation(index)
        let covered = occluded || coveredFaces.isEmpty ? [] : display.faces.indices.compactMap { face -> CoveredPart? in
            guard coveredFaces.contains(display.faces[face]), face < faceRects[index].count else { return nil }
            return CoveredPart(face: display.faces[face], rect: faceRects[index][face].turned(clockwise: mount))
        }
        // Screen rotation is measured from the panel's own top, which the mount turns.
        let up = ImageRotation.contentUp(of: display, screenRotation: mount + screenRotations[index], pose: pose)
        func decided(_ forward: [Int], _ backward: [Int], _ pairs: [PairDecision?]) -> DisplayState {
            DisplayState(occluded: occluded, unviewable: unviewable, outputState: outputStates[index], mountRotation: mount,
                         mountRotationSource: mountSource, covered: covered, forward: forward, backward: backward, pairs: pairs)
        }
        for camera in rig.cameras.indices {
            if let rotation = ImageRotation.rotation(bringing: up, toTopOf: bases[camera], minimumProjection: rig.tunables.rotationMinimumProjection) {
                previewRotations[index][camera] = rotation
            }
        }
        var pairs = [PairDecision?](repeating: nil, count: rig.cameras.count)
        guard unviewable == nil, let normal = DirectionClassifier.viewingNormal(visible, pose: pose) else {
            // Nobody can look at a covered or dark display: forget its sides so it starts afresh.
            for camera in rig.cameras.indices { sides[index][camera] = nil }
            return decided([], [], pairs)
        }
        var forward: [(theta: Double, camera: Int)] = []
        var backward: [(theta: Double, camera: Int)] = []
        for camera in rig.cameras.indices {
            guard cameras[camera].available else {
                sides[index][camera] = nil  // returns from unavailability classified afresh
                continue
            }
            let theta = Trig.degrees(Trig.acos(bases[camera].axis.dot(normal)))
            let isForward = DirectionClassifier.isForward(theta: theta, previous: sides[index][camera], hysteresis: rig.tunables.directionHysteresis)
            sides[index][camera] = isForward
            pairs[camera] = PairDecision(theta: theta, forward: isForward, mirror: isForward, previewRotation: previewRotations[index][camera])
            if isForward {
                forward.append((theta, camera))
            } else {
                backward.append((theta, camera))
            }
        }
        // Ties (equal to rounding noise) keep the rig's camera order.
        forward.sort { Self.roughlyLess($0.theta, $1.theta) || (!Self.roughlyLess($1.theta, $0.theta) && $0.camera < $1.camera) }
        backward.sort { Self.roughlyLess($1.theta, $0.theta) || (!Self.roughlyLess($0.theta, $1.theta) && $0.camera < $1.camera) }
        return decided(forward.map(\.camera), backward.map(\.camera), pairs)
    }

    /// The rig's mount rotation, else the kernel's panel orientation, else 0.
    private func mountRotation(_ display: Int) -> (Int, MountRotationSource) {
        if let written = rig.displays[display].output?.mountRotation { return (written, .rig) }
        if let reported = panelOrientations[display] { return (reported, .kernel) }
        return (0, .none)
    }

    private static func roughlyLess(_ a: Double, _ b: Double) -> Bool { a < b - 1e-9 }

    private func currentGravity(_ pose: RigPose) -> Vector3? {
        measuredGravity(pose) ?? reportedGravity ?? hintedGravity(pose)
    }

    private func measuredGravity(_ pose: RigPose) -> Vector3? {
        guard gravityFromAccelerometers else { return nil }
        // Swapped labels put each reading on the wrong panel: no gravity from them either.
        if let pair = accelerometerPair, plausibility.isSetAside(.accelerometerPair(hinge: pair.hinge)) { return nil }
        for sensor in accelerometerOrder {
            if let reading = accelerometerReadings[sensor] {
                return pose.orientations[rig.accelerometers[sensor].panel].apply(reading)
            }
        }
        return nil
    }

    /// The proxy's quarter turn, taken into the rig frame through the accelerometer's panel.
    private func hintedGravity(_ pose: RigPose) -> Vector3? {
        for sensor in accelerometerOrder {
            if let hint = orientationHints[sensor] {
                return pose.orientations[rig.accelerometers[sensor].panel].apply(hint)
            }
        }
        return nil
    }

    private var accelerometerOrder: [Int] {
        accelerometerPair.map { [$0.parentSensor, $0.childSensor] } ?? Array(rig.accelerometers.indices)
    }

    /// World up (against gravity) brought to the top. Without gravity, or with gravity along
    /// the optical axis, it keeps its last value; the first value is the viewed display's
    /// preview rotation (docs/model.md, "Rotation").
    private mutating func decideCaptureRotation(_ camera: Int, basis: ImageRotation.CameraBasis, gravity: Vector3?, viewed: Int) -> Int {
        if let gravity, let rotation = ImageRotation.rotation(bringing: -gravity, toTopOf: basis, minimumProjection: rig.tunables.rotationMinimumProjection) {
            captureRotations[camera] = rotation
            return rotation
        }
        if let last = captureRotations[camera] { return last }
        let initial = previewRotations[viewed][camera]
        captureRotations[camera] = initial
        return initial
    }
}
