import FoldcamCore
import FoldcamPlatform
import FoldcamVideo

/// Camera frames, from the driver's queue to the output frame, on the producer thread.
extension ProducerThread {
    /// `atTick`: the fed camera, read at the output tick (`now`), rather than a polled one.
    func drain(_ camera: String, atTick now: UInt64? = nil) {
        guard let stream = streams[camera] else { return }
        if let error = readFrames(from: stream, camera: camera, atTick: now) {
            fail(camera, reason: Self.reason(error), message: "\(error)")
        }
    }

    /// Takes every frame the driver has ready and uses the newest; the error that stopped it,
    /// if any. Older ones go straight back: only the newest would be written, and turning every
    /// frame of a backlog (a stream's first moments, a slow turn) could keep this thread from
    /// its output ticks for as long as frames keep coming. At the tick, a frame captured within
    /// the last output interval is taken as the newest without asking again: a camera at the
    /// output's rate has no newer one, and the question would cost a DQBUF that answers EAGAIN
    /// every frame. (A camera whose timestamps are not CLOCK_MONOTONIC is asked until EAGAIN.)
    private func readFrames(from stream: any CameraSource, camera: String, atTick now: UInt64?) -> SystemCallError? {
        do {
            var newest: (buffer: DriverBuffer, timestamp: UInt64)?
            while let filled = try stream.dequeue() {
                if let older = newest { try stream.requeue(older.buffer.index) }
                newest = filled
                if let now, ForwardingPlan.isNewestAtTick(timestamp: filled.timestamp, now: now, interval: interval) { break }
            }
            guard let newest else { return nil }
            if !delivered.contains(camera) {
                delivered.insert(camera)
                producer.events.post(.firstFrame(camera: camera))
            }
            try use(newest.buffer, timestamp: newest.timestamp, from: stream, camera: camera, now: now ?? MonotonicClock.nanoseconds)
            return nil
        } catch {
            return error
        }
    }

    /// Shows a dequeued frame of `camera`, or gives it straight back. The fed camera's frame is
    /// held and shown as it is when it needs no turn (and the stream has buffers to spare), else
    /// copied, turned on the way; other cameras' (pre-warmed) and short frames go straight back.
    private func use(_ buffer: DriverBuffer, timestamp: UInt64, from stream: any CameraSource, camera: String, now: UInt64) throws(SystemCallError) {
        let c = configuration
        if c.decodesMJPG { return try useDecoded(buffer, timestamp: timestamp, from: stream, camera: camera, now: now) }
        let frameBytes = c.format.byteCount(width: c.width, height: c.height)
        let transform = FrameTransform.Operation(rotation: hardwareFlip ? 0 : effectiveRotation(rotation), mirror: c.mirror)
        shared.put(camera, bytes: buffer.bytes, count: frameBytes, timestamp: timestamp, flipped: hardwareFlip && camera == feeding)
        guard camera == feeding, buffer.bytes.count >= frameBytes else {
            return try stream.requeue(buffer.index)
        }
        if stream.lender != nil {
            // A loopback page: shown as it is, or turned in place first (a software turn).
            release(transform == .identity
                ? frame.hold(buffer, camera: camera, inRing: false, lent: true)
                : frame.turnAndHold(buffer, camera: camera, transform: transform), now: now)
            freshTurned = transform != .identity
        } else if transform == .identity && stream.bufferCount >= VirtualCameraProducer.buffersBeyondRing {
            let inRing = stream.bufferCount >= producer.frames.capacity + VirtualCameraProducer.buffersBeyondRing
            release(frame.hold(buffer, camera: camera, inRing: inRing), now: now)
            freshTurned = false
        } else {
            release(frame.copy(buffer.bytes, timestamp: timestamp, camera: camera, transform: transform), now: now)
            try stream.requeue(buffer.index)
            freshTurned = false
        }
        fresh = true
    }

    /// An MJPG frame: the fed camera's is decoded and shown as a copy, turned on the way, and a
    /// camera another virtual camera shares is decoded for it; no other camera's is (it costs
    /// milliseconds). The driver's buffer goes straight back. A damaged frame is dropped, and
    /// the one before stays shown.
    private func useDecoded(_ buffer: DriverBuffer, timestamp: UInt64, from stream: any CameraSource, camera: String, now: UInt64) throws(SystemCallError) {
        guard camera == feeding || shared.isHosted(camera) else { return try stream.requeue(buffer.index) }
        guard let decoder else {
            try stream.requeue(buffer.index)
            return fail(camera, reason: .error, message: decoderProblem ?? "no MJPG decoder")
        }
        let c = configuration
        var failure: MJPEGDecoder.Failure?
        decodedFrame.withUnsafeMutableBytes { out in
            do throws(MJPEGDecoder.Failure) {
                try decoder.decode(buffer.bytes, width: c.width, height: c.height, into: out)
            } catch {
                failure = error
            }
        }
        try stream.requeue(buffer.index)
        if let failure {
            if !toldDamagedFrame { producer.events.post(.degraded(message: "\(camera): dropped an MJPG frame (\(failure)); later ones are dropped without a word")) }
            toldDamagedFrame = true
            return
        }
        if decoder.recoveredFrames > 0 && !toldRecoveredFrame {
            toldRecoveredFrame = true
            producer.events.post(.degraded(message: "\(camera): an MJPG frame had damaged data the decoder recovered from (\(decoder.lastWarning ?? "a warning")); such frames are shown, and later ones without a word"))
        }
        let transform = FrameTransform.Operation(rotation: hardwareFlip ? 0 : effectiveRotation(rotation), mirror: c.mirror)
        let fed = camera == feeding
        decodedFrame.withUnsafeBytes { bytes in
            shared.put(camera, bytes: bytes, count: bytes.count, timestamp: timestamp, flipped: hardwareFlip && fed)
            if fed { release(frame.copy(bytes, timestamp: timestamp, camera: camera, transform: transform), now: now) }
        }
        guard fed else { return }
        freshTurned = false
        fresh = true
    }

    /// Quarter turns fit only a square output; otherwise the turn is left to the reader (the
    /// daemon publishes captureRotation) and only 180° is applied.
    func effectiveRotation(_ rotation: Int) -> Int {
        let c = configuration
        if rotation == 90 || rotation == 270 { return c.width == c.height ? rotation : 0 }
        return rotation
    }

    /// The fed camera, when it is synthetic, draws a frame per tick; synthetic cameras being
    /// warmed up deliver at once.
    func tickSynthetic(now: UInt64) {
        if let feeding, let raw = synthetic[feeding] {
            var copy = raw
            copy.timestamp = now
            let c = configuration
            release(frame.set(copy, transform: .init(rotation: hardwareFlip ? 0 : effectiveRotation(rotation), mirror: c.mirror)), now: now)
            fresh = true
            if !delivered.contains(feeding) {
                delivered.insert(feeding)
                producer.events.post(.firstFrame(camera: feeding))
            }
        }
        for camera in synthetic.keys where !delivered.contains(camera) {
            delivered.insert(camera)
            producer.events.post(.firstFrame(camera: camera))
        }
    }
}
