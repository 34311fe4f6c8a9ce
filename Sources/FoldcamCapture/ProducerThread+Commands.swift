import FoldcamCore
import FoldcamPlatform
import FoldcamVideo

/// The daemon's commands and the setup thread's results, on the producer thread.
extension ProducerThread {
    /// False for `.stop`.
    func handle(_ command: VirtualCameraProducer.Command) -> Bool {
        let c = configuration
        // Closing a camera changes nothing on the output, nor does stopping; everything else
        // needs a write (idle too: its frame, once).
        switch command {
        case .close, .stop: break
        default: resumeTicks()
        }
        switch command {
        case let .open(camera, source):
            guard streams[camera] == nil && synthetic[camera] == nil && !shared.isJoined(camera) else {
                // Kept open for another virtual camera and wanted again: it delivers already.
                if delivered.contains(camera) { producer.events.post(.firstFrame(camera: camera)) }
                return true
            }
            delivered.remove(camera)
            if case .shared = source {} else { producer.statistics.withLock { $0.camerasOpened += 1 } }
            switch source {
            case let .shared(feed):
                shared.join(feed)
            case let .synthetic(index, sensorRotation):
                synthetic[camera] = SyntheticFrames.cameraFrame(id: camera, index: index, sensorRotation: sensorRotation, format: c.format, width: c.width, height: c.height, timestamp: 0)
            case let .device(node):
                decide(.open(camera: camera, node: node))
            }
        case let .close(camera):
            shared.leave(camera)
            shared.end(camera, reason: .busy, message: "\(camera) was closed")
            decide(.close(camera: camera))
            synthetic[camera] = nil
            delivered.remove(camera)
        case let .feed(camera, rotation):
            // The daemon repeats the feed on every decision (the turn may have changed);
            // an unchanged one must not touch the sensor's controls again.
            if feeding == camera && self.rotation == rotation { return true }
            decide(.feed(camera: camera))
            self.rotation = rotation
            orientFedStream()
        case let .share(feed):
            host(feed)
        case let .unshare(feed):
            shared.remove(feed)
        case .feedUnavailable:
            decide(.feed(camera: nil))
            release(frame.set(unavailable, transform: .identity), now: MonotonicClock.nanoseconds)
        case .idle:
            decide(.feed(camera: nil))
            release(frame.set(idleFrame, transform: .identity), now: MonotonicClock.nanoseconds)
            idling = true
        case .stop:
            return false
        }
        return true
    }

    func receive(_ result: CaptureStreamSetup.Result) {
        switch result {
        case let .opened(camera, ticket, transfer, path):
            decide(.opened(camera: camera, ticket: ticket, lent: transfer.stream.lender != nil, path: path), arrived: transfer)
        case let .returned(lender):
            decide(.returned(lender: lender, shown: frame.cameraShown))
        case let .failed(camera, ticket, error):
            for case let .openFailed(camera, report) in policy.handle(.openFailed(camera: camera, ticket: ticket), isHosted: { self.shared.isHosted($0) }) {
                self.shared.end(camera, reason: Self.reason(error), message: "\(error)")
                // A camera closed meanwhile is no longer anybody's concern.
                if report { producer.events.post(.failed(camera: camera, reason: Self.reason(error), message: "\(error)")) }
            }
        }
    }

    /// Back from idle: one frame per period again, from now.
    private func resumeTicks() {
        if parked, let sink = paged {
            parked = false
            do {
                try sink.unpark()
            } catch {
                // The loopback changed its buffers meanwhile (another opener): no page is lent, so
                // frames go by write() from now on, as when a reader shrinks the loopback.
                producer.events.post(.degraded(message: "mapping the loopback's buffers again after idling failed (\(error)); writing frames with one copy"))
                decide(.tick(loopbackDistinct: false))
            }
        }
        idling = false
        if !ticking { lastWrite = 0 }  // the idle pause is no interval between writes
        ticking = true
    }

    /// Turns the fed camera's sensor by 180° when the feed needs it and the sensor can (the
    /// frames then need no turn here); otherwise sets it straight. A camera whose stream has
    /// not arrived yet is done when it arrives.
    func orientFedStream() {
        hardwareFlip = false
        guard let feeding, let stream = streams[feeding] else { return }
        if effectiveRotation(rotation) == 180, stream.setFlipped(true) {
            hardwareFlip = true
        } else {
            _ = stream.setFlipped(false)
        }
    }

    static func reason(_ error: SystemCallError) -> Readiness.Reason {
        error.isBusy ? .busy : (error.deviceVanished ? .unplugged : .error)
    }

    func fail(_ camera: String, reason: Readiness.Reason, message: String) {
        shared.end(camera, reason: reason, message: message)
        decide(.streamFailed(camera: camera))
        delivered.remove(camera)
        producer.events.post(.failed(camera: camera, reason: reason, message: message))
    }

    /// Stops every stream, those still starting included, before reporting `.stopped`.
    func shutdown() {
        writer = nil
        shared.endAll(message: "the virtual camera that streamed it stopped")
        decide(.shutdown)
        streams.finish()
        // Every stream that captured into the loopback's pages has stopped: unmap them.
        paged = nil
        abandoned = nil
        producer.events.post(.stopped)
    }
}
